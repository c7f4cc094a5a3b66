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
        list.snippet = { [weak self] id in self?.snippet(of: id) }
    }

    /// Ctrl+F.
    func focusSearch() {
        _ = searchEntry.grabFocus()
    }

    /// Shows the notes of the chosen notebook whose title or text contains every word of
    /// `query`. The index is asked on `searchQueue`; only the newest query's answer is shown.
    func search(_ query: String) {
        let started = MonotonicClock.now()
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        searchGeneration += 1
        let generation = searchGeneration
        let show = { [weak self] (found: Set<String>?) in
            guard let self, generation == self.searchGeneration else { return }
            var shown = found
            if let notebook = self.selectedNotebook {
                // A notebook shows its own notes and those of the notebooks inside it.
                let inNotebook = Set(self.list.allIDs.filter { $0.hasPrefix(notebook + "/") })
                shown = shown.map { $0.intersection(inNotebook) } ?? inNotebook
            }
            if trimmed != self.list.query { self.snippets = [:] }
            self.list.filter(shown, query: trimmed)
            SearchReport.searched(milliseconds: (MonotonicClock.now() - started) * 1000, matches: self.list.count)
        }
        guard !trimmed.isEmpty, let index = libraryIndex else { return show(nil) }
        searchQueue.async {
            let found = index.matches(trimmed)
            DispatchQueue.main.async { show(found) }
        }
    }

    /// A note's text changed while searching (or a note came in a notebook view): it may
    /// belong in the list now, or no longer.
    func searchAgainIfNeeded() {
        if !list.query.isEmpty || selectedNotebook != nil { search(searchEntry.text) }
    }

    /// The line of a matching note that holds the query, for its row (read from the file: the
    /// app keeps no note's text; only rows on screen ask, once per query).
    private func snippet(of id: String) -> String? {
        if let known = snippets[id] { return known }
        let query = list.query
        let line = list.summary(id).flatMap { note -> String? in
            guard let (bytes, _) = try? RegularFile.prefix(note.url, count: 64 * 1024) else { return nil }
            return SearchSnippet.line(in: String(decoding: bytes, as: UTF8.self), for: query)
        }
        snippets[id] = line
        return line
    }

    /// The pins: a tiny file in the library, read in the background.
    func loadPins() {
        let pins = PinnedNotes(library: library.folder)
        io.async {
            let pinned = pins.load()
            DispatchQueue.main.async { [weak self] in self?.list.arrangement.pinned = pinned }
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
