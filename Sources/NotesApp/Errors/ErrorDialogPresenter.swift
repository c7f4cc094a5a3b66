import Gtk
import NotesCore

/// Shows recoverable errors as message dialogs, one at a time, modal to the window: the
/// failure as the title, the suggestion as the secondary text, one button per option (the
/// first answers Enter, the cancel option Escape, a destructive one is styled red). Later
/// errors wait their turn; an error identical to one showing or waiting is merged with it
/// (every caller hears the outcome).
final class ErrorDialogPresenter {
    private struct Pending {
        let error: RecoverableFailure
        var completions: [@MainActor (Bool) -> Void]
    }

    private var queue: [Pending] = []
    private var current: Pending?
    private(set) var dialog: MessageDialog?
    /// The window dialogs are modal to.
    weak var parent: Window?
    /// While no one may be asked (quitting, all notes moving): errors wait, in order, and the
    /// same error asked twice is still one dialog once they show.
    var isHeld = false {
        didSet { if !isHeld { showNext() } }
    }

    func present(_ error: RecoverableFailure, completion: @escaping @MainActor (Bool) -> Void) {
        if current?.error.presentationKey == error.presentationKey {
            current?.completions.append(completion)
            return
        }
        if let index = queue.firstIndex(where: { $0.error.presentationKey == error.presentationKey }) {
            queue[index].completions.append(completion)
            return
        }
        queue.append(Pending(error: error, completions: [completion]))
        showNext()
    }

    var isPresenting: Bool { dialog != nil }
    var waiting: Int { queue.count }

    /// Answers the dialog on screen with option `index` (keyboard tests, automation).
    func choose(_ index: Int) { dialog?.respond(index) }

    private func showNext() {
        guard current == nil, !isHeld, !queue.isEmpty else { return }
        let pending = queue.removeFirst()
        let error = pending.error
        // Bounded: a message can quote what another program handed over (a 1 MB id took
        // 14–17 s to lay out).
        let reason = RecoverableFailure.shortened(error.failureReason, limit: 300)
        let dialog = MessageDialog(parent: parent, text: reason,
                                   secondaryText: RecoverableFailure.shortened(error.recoverySuggestion, limit: 2000))
        dialog.title = reason
        for (index, option) in error.recoveryOptions.enumerated() {
            let role: MessageDialog.ButtonRole
            switch option.role {
            case .default: role = .suggested
            case .destructive: role = .destructive
            case .cancel, .normal: role = .normal
            }
            dialog.addButton(option.title, response: index, role: role)
        }
        dialog.setDefaultResponse(0)
        dialog.onResponse { [weak self] dialog, response in
            // Escape and closing the dialog answer the cancel option, if there is one.
            let chosen = response >= 0 ? response : error.cancelOptionIndex
            dialog.destroy()
            self?.finish(chosen)
        }
        current = pending
        self.dialog = dialog
        dialog.present()
    }

    private func finish(_ chosen: Int?) {
        guard let pending = current else { return }
        current = nil
        dialog = nil
        let completeAll: @MainActor (Bool) -> Void = { recovered in pending.completions.forEach { $0(recovered) } }
        if let chosen {
            pending.error.attemptRecovery(optionIndex: chosen, completion: completeAll)
        } else {
            completeAll(false)
        }
        showNext()
    }
}
