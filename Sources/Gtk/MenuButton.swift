import CGtk

/// A button that opens a menu: an icon in a header bar, or a label (a choice among the menu's
/// radio items, as in Preferences).
public final class MenuButton: Widget {
    private var model: Menu?

    public init(iconName: String, menu: Menu) {
        super.init(floating: gtk_menu_button_new())
        gtk_menu_button_set_icon_name(opaque, iconName)
        gtk_menu_button_set_menu_model(opaque, menu.ptr())
        model = menu
    }

    public init(label: String, menu: Menu) {
        super.init(floating: gtk_menu_button_new())
        gtk_menu_button_set_label(opaque, label)
        gtk_menu_button_set_menu_model(opaque, menu.ptr())
        model = menu
    }

    /// The words on the button.
    public var label: String {
        get { gtk_menu_button_get_label(opaque).map { String(cString: $0) } ?? "" }
        set { gtk_menu_button_set_label(opaque, newValue) }
    }

    /// The primary menu opens with F10.
    public var isPrimary: Bool {
        get { gtk_menu_button_get_primary(opaque) != 0 }
        set { gtk_menu_button_set_primary(opaque, newValue ? 1 : 0) }
    }
}
