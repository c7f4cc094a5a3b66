import CGtk

/// A modal message dialog with one button per response.
public final class MessageDialog: Window {
    public enum Kind { case info, warning, question, error }
    public enum ButtonRole { case normal, suggested, destructive }

    public init(parent: Window?, kind: Kind, text: String, secondaryText: String? = nil) {
        let type: GtkMessageType
        switch kind {
        case .info: type = GTK_MESSAGE_INFO
        case .warning: type = GTK_MESSAGE_WARNING
        case .question: type = GTK_MESSAGE_QUESTION
        case .error: type = GTK_MESSAGE_ERROR
        }
        super.init(floating: notula_message_dialog_new(parent?.window, type, text))
        if let secondaryText { notula_message_dialog_set_secondary(ptr(), secondaryText) }
    }

    /// Adds a button that answers `response` (>= 0) when clicked.
    public func addButton(_ label: String, response: Int, role: ButtonRole = .normal) {
        guard let button = gtk_dialog_add_button(ptr(), label, Int32(clamping: response)) else { return }
        ButtonNames.nameOnce(button, shown: label)  // GTK 4.8 would name it twice ("Cancel Cancel")
        switch role {
        case .normal: break
        case .suggested: gtk_widget_add_css_class(button, "suggested-action")
        case .destructive: gtk_widget_add_css_class(button, "destructive-action")
        }
    }

    /// Adds a widget below the texts (a list too long for the secondary text).
    public func addExtraChild(_ child: Widget) {
        guard let area = gtk_message_dialog_get_message_area(ptr()) else { return }
        gtk_box_append(UnsafeMutableRawPointer(area).assumingMemoryBound(to: GtkBox.self), child.widget)
    }

    /// The response Enter activates.
    public func setDefaultResponse(_ response: Int) { gtk_dialog_set_default_response(ptr(), Int32(clamping: response)) }

    /// The user's answer: a button's response, or a negative GTK response (Escape, closed).
    @discardableResult
    public func onResponse(_ handler: @escaping (MessageDialog, Int) -> Void) -> SignalConnection {
        connectInt("response", self) { dialog, response in handler(dialog, Int(response)) }
    }

    /// Activates a response as if its button was clicked (keyboard tests, automation).
    public func respond(_ response: Int) { gtk_dialog_response(ptr(), Int32(clamping: response)) }

    /// The primary text (the failure) as shown.
    public var text: String { copyText("text") }
    /// The secondary text (the suggestion) as shown.
    public var secondaryText: String { copyText("secondary-text") }

    private func copyText(_ property: String) -> String {
        guard let value = notula_message_dialog_copy_text(ptr(), property) else { return "" }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// The label of the button that answers `response`, or nil.
    public func buttonLabel(for response: Int) -> String? {
        guard let button = gtk_dialog_get_widget_for_response(ptr(), Int32(clamping: response)) else { return nil }
        return gtk_button_get_label(UnsafeMutableRawPointer(button).assumingMemoryBound(to: GtkButton.self)).map { String(cString: $0) }
    }

    /// Whether the button for `response` carries a style class ("suggested-action", "destructive-action").
    public func button(for response: Int, hasStyle style: String) -> Bool {
        guard let button = gtk_dialog_get_widget_for_response(ptr(), Int32(clamping: response)) else { return false }
        return gtk_widget_has_css_class(button, style) != 0
    }
}
