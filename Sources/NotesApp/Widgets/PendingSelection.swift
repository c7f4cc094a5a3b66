import Dispatch
import NotesCore

/// A selection being made on another thread: Ctrl+A of 100,000 notes hashes every id (8 ms,
/// half a frame), which the list does off the main thread and shows once done
/// (`NotesListView.selectEveryShownNote`).
nonisolated final class PendingSelection: @unchecked Sendable {  // `selection` is written once, before `made` is signalled
    private let made = DispatchSemaphore(value: 0)
    private var selection = NoteSelection()
    /// Run on the main thread once the list shows it.
    let whenShown: (@MainActor () -> Void)?

    init(whenShown: (@MainActor () -> Void)?) {
        self.whenShown = whenShown
    }

    /// Makes `base` select every note of `order`, on another thread; `done` on the main thread after.
    func make(from base: NoteSelection, selectingAll order: [String], then done: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInteractive).async {
            var selection = base
            selection.selectAll(order)
            self.selection = selection
            self.made.signal()
            DispatchQueue.main.async { done() }
        }
    }

    /// The selection, once made (waits for it: something asked for the selection meanwhile).
    func wait() -> NoteSelection {
        made.wait()
        made.signal()
        return selection
    }
}
