import Dispatch
import Foundation
import Gtk
import NotesCore

/// Ordering notes: pins (kept in the library, so they move and sync with it) and the sort
/// order. (Search: `SearchController`.)
extension NotesController {
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
        changePins(note: list.summary(id)?.title, retry: { [weak self] in self?.setPinned(pinned, id: id) }) {
            if pinned { $0.insert(id) } else { $0.remove(id) }
        }
        list.select(id, notify: false)
    }

    /// Changes the pins as `change` says (one note's, or a selection's at once) and writes the
    /// pin file once, in the background. Pins of notes that are gone are dropped as it is.
    func changePins(note: String? = nil, retry: (@MainActor () -> Void)? = nil, _ change: (inout Set<String>) -> Void) {
        var set = list.arrangement.pinned
        change(&set)
        set = set.filter { list.summary($0) != nil }
        list.arrangement.pinned = set
        let pins = PinnedNotes(library: library.folder)
        let saved = set
        io.async {
            guard case .failure(let error) = Result(catching: { try pins.save(saved) }) else { return }
            DispatchQueue.main.async { [weak self] in
                self?.list.presentError(OperationError(.pin, note: note, underlying: error)) { recovered in
                    if recovered { retry?() }
                }
            }
        }
    }

    var sortOrder: NoteSortOrder {
        get { list.arrangement.sortOrder }
        set { list.arrangement.sortOrder = newValue }
    }
}
