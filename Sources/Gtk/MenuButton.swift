import CGtk

/// A header-bar button that opens a menu.
public final class MenuButton: Widget {
    private var model: Menu?

    public init(iconName: String, menu: Menu) {
        super.init(floating: gtk_menu_button_new())
        gtk_menu_button_set_icon_name(opaque, iconName)
        gtk_menu_button_set_menu_model(opaque, menu.ptr())
        model = menu
    }

    /// The primary menu opens with F10.
    public var isPrimary: Bool {
        get { gtk_menu_button_get_primary(opaque) != 0 }
        set { gtk_menu_button_set_primary(opaque, newValue ? 1 : 0) }
    }
}
