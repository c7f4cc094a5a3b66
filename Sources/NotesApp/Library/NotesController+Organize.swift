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
