import CGtk

/// A button that stays pressed in until pressed again. Unlike a check box it has an action
/// assistive technologies can press on every GTK (4.18's check boxes have none).
public final class ToggleButton: Widget {
    public init(iconName: String) {
        super.init(floating: gtk_toggle_button_new())
        gtk_button_set_icon_name(ptr(), iconName)
    }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(ptr()) != 0 }
        set { gtk_toggle_button_set_active(ptr(), newValue ? 1 : 0) }
    }

    /// Emitted when the user (or `isActive`) changes the state.
    @discardableResult
    public func onToggled(_ handler: @escaping (ToggleButton) -> Void) -> SignalConnection {
        connectVoid("toggled", self, handler)
    }
}
