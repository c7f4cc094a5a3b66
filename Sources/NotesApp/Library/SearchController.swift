import Dispatch
import Foundation
import Synchronization
import Gtk
import NotesCore

/// Search as you type (Ctrl+F focuses the field, Escape clears it, Enter opens the first
/// match): the library index is asked on a queue of its own — never behind indexing — and only
/// the newest query's answer reaches the list, within the notebook the list shows (and the
/// chosen tag's notes). The matching line of a note whose preview does not show the match
/// comes from `SearchSnippets`.
final class SearchController {
    let entry = SearchEntry()
    /// Under the field while notes' texts are being indexed: "Indexing… 43,000 of 100,000"
    /// (search finds only what is indexed so far).
    let indexingNote = Label()
    /// The library's index (nil until the library is open).
    var index: LibraryIndex?
    /// The notebook whose notes the list shows (nil: All Notes).
    var notebook: String?
    /// The notes holding the chosen tag (nil: no tag chosen).
    var tagged: Set<String>?
    private let list: NotesListView
    private let queue = DispatchQueue(label: "notula.search", qos: .userInitiated)
    /// The newest query asked for; older answers are dropped, older searches stopped.
    private var generation = 0
    /// `generation` as the search queue sees it: a query that is no longer the newest when its
    /// turn comes is not run at all.
    private let newest = NewestQuery()
    /// Matching lines of listed notes for the current query.
    private let snippets = SearchSnippets()

    init(list: NotesListView) {
        self.list = list
        entry.setPlaceholder(tr("Search notes"))
        entry.accessibleLabel = tr("Search notes")
        entry.tooltip = tr("Search titles and text (Ctrl+F)")
        entry.setMargins(top: 6, bottom: 6, start: 6, end: 6)
        entry.onSearchChanged { [weak self] entry in self?.find(entry.text) }
        entry.onStopSearch { [weak list] entry in
            entry.text = ""
            list?.focus()
        }
        entry.onActivate { [weak list] _ in
            // Enter: open the first match.
            guard let list, let first = list.orderedIDs.first else { return }
            list.select(first, notify: true)
        }
        list.snippet = { [weak self] id in self?.snippet(of: id) }
        indexingNote.addCSSClass("note-meta")
        indexingNote.xalign = 0
        indexingNote.ellipsizesAtEnd = true
        indexingNote.setMargins(top: 0, bottom: 4, start: 10, end: 6)
        indexingNote.isVisible = false
    }

    /// Notes' texts are being indexed (`indexed` of `total` done), or are all in (`total` reached):
    /// the note under the field says how far, and the current search runs again, its results
    /// filling in.
    func showIndexing(indexed: Int, of total: Int) {
        let isComplete = indexed >= total
        if !isComplete {
            let format = { (number: Int) in number.formatted(.number.locale(Localization.locale)) }
            // TRANSLATORS: under the search field while notes are read for search; %s: numbers with digit grouping (“43,000 of 100,000”)
            indexingNote.text = tr("Indexing… %s of %s", format(indexed), format(total))
        }
        indexingNote.isVisible = !isComplete
        if !list.query.isEmpty { find(entry.text, refresh: true) }
    }

    /// The index is complete: it reads what searches need first, before the first keystroke.
    func prepare() {
        guard let index else { return }
        queue.async { index.prepareSearch() }
    }

    func focus() {
        _ = entry.grabFocus()
    }

    var hasFocus: Bool { entry.hasFocus }

    /// Shows the notes of the chosen notebook whose title or text contains every word of `query`
    /// (`refresh`: asked again because notes changed, not typed; for the benchmark's report).
    func find(_ query: String, refresh: Bool = false) {
        let started = MonotonicClock.now()
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        SearchReport.began(query: trimmed, refresh: refresh)
        generation += 1
        let asked = generation
        let show: @MainActor (IndexRows?) -> Void = { [weak self] found in
            guard let self, asked == self.generation else { return }
            var includes: ((String, Int64?) -> Bool)? = found.map { rows in
                { _, row in
                    guard let row else { return false }
                    return rows.contains(row)
                }
            }
            if let notebook = self.notebook {
                // A notebook shows its own notes and those of the notebooks inside it.
                let prefix = notebook + "/"
                includes = includes.map { matches in { id, row in id.hasPrefix(prefix) && matches(id, row) } } ?? { id, _ in id.hasPrefix(prefix) }
            }
            if let tagged = self.tagged {
                includes = includes.map { matches in { id, row in tagged.contains(id) && matches(id, row) } } ?? { id, _ in tagged.contains(id) }
            }
            if trimmed != self.list.query { self.snippets.forget() }
            self.list.filter(includes, query: trimmed)
            SearchReport.shown(query: trimmed, milliseconds: (MonotonicClock.now() - started) * 1000,
                               matches: self.list.count, in: self.entry)
        }
        newest.set(asked)
        // Typing on: the search still running is for a query no one waits for any more.
        index?.interruptSearch()
        guard !trimmed.isEmpty, let index else { return show(nil) }
        queue.async { [newest] in
            guard newest.get() == asked, let found = try? index.matchingRows(trimmed) else { return }
            DispatchQueue.main.async { show(found) }
        }
    }

    /// Notes changed (or a note came in a notebook view): they may belong in the list now, or
    /// no longer, and their matching lines may have moved.
    func findAgainIfNeeded() {
        snippets.forget()
        if !list.query.isEmpty || notebook != nil || tagged != nil { find(entry.text, refresh: true) }
    }

    /// The row's matching line when it is known; otherwise nil now, and the row is shown
    /// again once its line is read.
    private func snippet(of id: String) -> String? {
        guard let url = list.summary(id)?.url else { return nil }
        return snippets.line(of: id, at: url, for: list.query, currentQuery: { [weak list] in list?.query ?? "" },
                             refresh: { [weak list] id in list?.refreshRow(id) })
    }
}

/// The number of the newest query, shared with the search queue.
nonisolated private final class NewestQuery: Sendable {
    private let value = Mutex(0)
    func set(_ newValue: Int) { value.withLock { $0 = newValue } }
    func get() -> Int { value.withLock { $0 } }
}
