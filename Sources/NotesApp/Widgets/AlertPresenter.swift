import Gtk

/// Shows message dialogs one at a time over the window; later alerts wait their turn and an
/// alert identical to one already waiting is not shown twice.
final class AlertPresenter {
    struct Choice {
        let label: String
        let role: MessageDialog.ButtonRole
        let action: () -> Void
        init(_ label: String, role: MessageDialog.ButtonRole = .normal, action: @escaping () -> Void = {}) {
            self.label = label
            self.role = role
            self.action = action
        }
    }

    private struct Alert {
        let title: String
        let detail: String
        let choices: [Choice]
        var key: String { title + "\n" + detail }
    }

    private weak var parent: Window?
    private var queue: [Alert] = []
    private var current: MessageDialog?
    private var currentKey: String?

    init(parent: Window) {
        self.parent = parent
    }

    /// Queues an alert; the first choice is the default (Enter). With no choices: a single OK.
    func present(title: String, detail: String, choices: [Choice] = []) {
        let alert = Alert(title: title, detail: detail, choices: choices.isEmpty ? [Choice("OK")] : choices)
        guard currentKey != alert.key, !queue.contains(where: { $0.key == alert.key }) else { return }
        queue.append(alert)
        showNext()
    }

    var isPresenting: Bool { current != nil }
    var currentTitle: String? { current?.title }

    /// Answers the dialog on screen with its choice at `index` (tests).
    func choose(_ index: Int) { current?.respond(index) }

    private func showNext() {
        guard current == nil, !queue.isEmpty, let parent else { return }
        let alert = queue.removeFirst()
        let dialog = MessageDialog(parent: parent, kind: .error, text: alert.title, secondaryText: alert.detail)
        for (index, choice) in alert.choices.enumerated() {
            dialog.addButton(choice.label, response: index, role: choice.role)
        }
        dialog.setDefaultResponse(0)
        dialog.title = alert.title
        dialog.onResponse { [weak self] dialog, response in
            guard let self else { return }
            dialog.destroy()
            self.current = nil
            self.currentKey = nil
            if alert.choices.indices.contains(response) { alert.choices[response].action() }
            self.showNext()
        }
        current = dialog
        currentKey = alert.key
        dialog.present()
    }
}
