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

    /// Changes the pins as `change` says (one note's, or a selection's at once), shown at once;
    /// the pin file gets the same change in the background, made to the file as it is then
    /// (`PinnedNotes.change`: pins another device synced in stay, and show).
    func changePins(note: String? = nil, retry: (@MainActor () -> Void)? = nil, _ change: (inout Set<String>) -> Void) {
        let before = list.arrangement.pinned
        var after = before
        change(&after)
        guard after != before else { return }
        list.arrangement.pinned = after
        let pins = PinnedNotes(library: library.folder)
        let pinning = after.subtracting(before), unpinning = before.subtracting(after), shown = after
        io.async {
            let result = Result { try pins.change(pinning: pinning, unpinning: unpinning) }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let all):
                    if self.list.arrangement.pinned == shown { self.list.arrangement.pinned = all }
                case .failure(let error):
                    self.list.presentError(OperationError(.pin, note: note, underlying: error)) { recovered in
                        if recovered { retry?() }
                    }
                }
            }
        }
    }

    var sortOrder: NoteSortOrder {
        get { list.arrangement.sortOrder }
        set { list.arrangement.sortOrder = newValue }
    }
}
