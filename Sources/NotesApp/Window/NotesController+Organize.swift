import Dispatch
import Foundation
import Gtk
import NotesCore

/// Finding and ordering notes: search as you type (Ctrl+F, Escape clears), pins (kept in the
/// library, so they move and sync with it) and the sort order.
extension NotesController {
    func setUpSearch() {
        searchEntry.setPlaceholder("Search notes")
        searchEntry.accessibleLabel = "Search notes"
        searchEntry.tooltip = "Search titles and text (Ctrl+F)"
        searchEntry.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        searchEntry.onSearchChanged { [weak self] entry in self?.search(entry.text) }
        searchEntry.onStopSearch { [weak self] entry in
            entry.text = ""
            self?.list.focus()
        }
        searchEntry.onActivate { [weak self] _ in
            // Enter: open the first match.
            guard let self, let first = self.list.orderedIDs.first else { return }
            self.list.select(first, notify: true)
        }
        list.snippet = { [weak self] id in
            guard let self else { return nil }
            return self.searchIndex.snippet(of: id, for: self.list.query)
        }
    }

    /// Ctrl+F.
    func focusSearch() {
        _ = searchEntry.grabFocus()
    }

    /// Shows the notes of the chosen notebook whose title or text contains every word of `query`.
    func search(_ query: String) {
        let started = MonotonicClock.now()
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        var shown: Set<String>? = trimmed.isEmpty ? nil : searchIndex.matches(trimmed)
        if let notebook = selectedNotebook {
            // A notebook shows its own notes and those of the notebooks inside it.
            let inNotebook = Set(list.allIDs.filter { $0.hasPrefix(notebook + "/") })
            shown = shown.map { $0.intersection(inNotebook) } ?? inNotebook
        }
        list.filter(shown, query: trimmed)
        SearchReport.searched(milliseconds: (MonotonicClock.now() - started) * 1000, matches: list.count)
    }

    /// A note's text changed while searching (or a note came in a notebook view): it may
    /// belong in the list now, or no longer.
    func searchAgainIfNeeded() {
        if !list.query.isEmpty || selectedNotebook != nil { search(searchEntry.text) }
    }

    /// After the list shows: the pins (a tiny file) and every note's text for search, read and
    /// folded in the background so the window is usable at once.
    func loadPinsAndIndex(_ notes: [NoteSummary]) {
        let pins = PinnedNotes(library: library.folder)
        io.async {
            let pinned = pins.load()
            DispatchQueue.main.async { [weak self] in self?.list.arrangement.pinned = pinned }
            let entries = SearchIndex.entries(for: notes)
            DispatchQueue.main.async { [weak self] in
                self?.searchIndex.replaceAll(entries)
                SearchReport.indexReady(notes: entries.count)
                SearchReport.runBenchQuery { [weak self] query in self?.search(query) }
                SwitchReport.runIfRequested(ids: self?.list.orderedIDs ?? []) { [weak self] id, shown in
                    self?.list.select(id, notify: false)
                    self?.open(id, then: shown)
                }
                self?.searchAgainIfNeeded()
            }
        }
    }

    var selectedIsPinned: Bool { list.selectedID.map { list.arrangement.pinned.contains($0) } ?? false }

    /// Pins or unpins the note; the pin file in the library is rewritten in the background.
    func setPinned(_ pinned: Bool, id: String) {
        var set = list.arrangement.pinned
        if pinned { set.insert(id) } else { set.remove(id) }
        // Pins of notes that are gone are dropped as the file is written again.
        set = set.filter { list.summary($0) != nil }
        list.arrangement.pinned = set
        list.select(id, notify: false)
        let pins = PinnedNotes(library: library.folder)
        let saved = set
        io.async {
            guard case .failure(let error) = Result(catching: { try pins.save(saved) }) else { return }
            DispatchQueue.main.async { [weak self] in
                self?.list.presentError(OperationError(.pin, note: self?.list.summary(id)?.title, underlying: error)) { [weak self] recovered in
                    if recovered { self?.setPinned(pinned, id: id) }
                }
            }
        }
    }

    var sortOrder: NoteSortOrder {
        get { list.arrangement.sortOrder }
        set { list.arrangement.sortOrder = newValue }
    }
}
