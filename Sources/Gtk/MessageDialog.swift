import CGtk

/// A modal message: a short text (the failure, the question), an optional longer one below it,
/// and a row of buttons, each answering a response.
///
/// A plain GtkWindow with the alert dialog's role, laid out as GTK's message dialog is and with
/// the style classes GTK's theme draws that by (`window.dialog.message`, `label.title`,
/// `.dialog-action-area`), the same on every GTK: GtkMessageDialog and GtkDialog are deprecated
/// from 4.10, and their replacement, GtkAlertDialog, takes neither a widget below the text nor
/// button styles, which the app's dialogs use.
public final class MessageDialog: Window {
    public enum ButtonRole { case normal, suggested, destructive }

    /// The response of Escape and of closing the window (GTK_RESPONSE_DELETE_EVENT, as
    /// GtkDialog answered).
    public static let closedResponse = Int(GTK_RESPONSE_DELETE_EVENT.rawValue)

    /// The primary text (the failure) as shown.
    public let text: String
    /// The secondary text (the suggestion) as shown.
    public let secondaryText: String
    private let messageArea = Box(.vertical, spacing: 10)
    private let actionArea = Box(.horizontal)
    private var buttons: [(response: Int, button: Button)] = []
    private var defaultButton: Button?
    private var responseHandlers: [(MessageDialog, Int) -> Void] = []

    public init(parent: Window?, text: String, secondaryText: String? = nil) {
        self.text = text
        self.secondaryText = secondaryText ?? ""
        super.init(floating: notula_alert_window_new())
        addCSSClass("dialog")
        addCSSClass("message")
        isModal = true
        transientFor = parent
        gtk_window_set_destroy_with_parent(window, 1)
        gtk_window_set_resizable(window, 0)
        titlebar = Box(.horizontal)  // no title buttons: the answer is one of the buttons, or Escape
        accessibleLabel = text
        accessibleDescription = self.secondaryText

        let primary = Label(text)
        let secondary = Label(self.secondaryText)
        for label in [primary, secondary] {
            label.wraps = true
            label.maxWidthChars = 60
            label.halign = .center
            label.valign = .start
        }
        messageArea.append(primary)
        if secondaryText != nil {
            primary.addCSSClass("title")
            secondary.vexpand = true
            secondary.setMargins(top: 0, bottom: 2, start: 0, end: 0)
            messageArea.append(secondary)
        }
        messageArea.hexpand = true
        let textBox = Box(.horizontal)
        textBox.setMargins(top: 0, bottom: 0, start: 30, end: 30)
        textBox.append(messageArea)

        actionArea.addCSSClass("dialog-action-area")
        actionArea.isHomogeneous = true
        actionArea.hexpand = true
        let actionBox = Box(.horizontal)
        actionBox.addCSSClass("dialog-action-box")
        actionBox.append(actionArea)

        let content = Box(.vertical, spacing: 20)
        content.addCSSClass("dialog-vbox")
        content.append(textBox)
        content.append(actionBox)
        child = content

        let keys = KeyController()
        keys.onKeyPressed { [weak self] _, keyval, _ in
            guard keyval == Key.escape, let self else { return false }
            self.close()
            return true
        }
        addController(keys)
        onCloseRequest { [weak self] _ in
            self?.respond(Self.closedResponse)
            return false  // closes; a handler that destroyed the dialog already is fine too
        }
        // As GtkDialog did: the button Enter answers starts with the focus.
        onMap { [weak self] _ in _ = self?.defaultButton?.grabFocus() }
    }

    /// Adds a button that answers `response` (>= 0) when clicked. An underscore in `label`
    /// marks its access key.
    public func addButton(_ label: String, response: Int, role: ButtonRole = .normal) {
        let button = Button(mnemonic: label)
        ButtonNames.nameOnce(button.widget, shown: label)  // GTK 4.8 would name it twice ("Cancel Cancel")
        switch role {
        case .normal: break
        case .suggested: button.addCSSClass("suggested-action")
        case .destructive: button.addCSSClass("destructive-action")
        }
        button.hexpand = true
        button.onClicked { [weak self] _ in self?.respond(response) }
        actionArea.append(button)
        buttons.append((response, button))
    }

    /// Adds a widget below the texts (a list too long for the secondary text).
    public func addExtraChild(_ child: Widget) { messageArea.append(child) }

    /// The response Enter activates.
    public func setDefaultResponse(_ response: Int) {
        defaultButton = buttons.first { $0.response == response }?.button
        gtk_window_set_default_widget(window, defaultButton?.widget)
    }

    /// The user's answer: a button's response, or `closedResponse` (Escape, the window closed).
    public func onResponse(_ handler: @escaping (MessageDialog, Int) -> Void) {
        responseHandlers.append(handler)
    }

    /// Answers `response` as if its button was clicked (keyboard tests, automation).
    public func respond(_ response: Int) {
        for handler in responseHandlers { handler(self, response) }
    }

    /// The label of the button that answers `response`, or nil.
    public func buttonLabel(for response: Int) -> String? {
        buttons.first { $0.response == response }?.button.label
    }

    /// Whether the button for `response` carries a style class ("suggested-action", "destructive-action").
    public func button(for response: Int, hasStyle style: String) -> Bool {
        buttons.first { $0.response == response }?.button.hasCSSClass(style) ?? false
    }
}
