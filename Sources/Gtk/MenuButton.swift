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

    /// The menu opens above the button (a button at the bottom of a window).
    public func opensUpward() {
        gtk_menu_button_set_direction(opaque, GTK_ARROW_UP)
    }

    /// The menu opened (a click, a key, `popup()`).
    @discardableResult
    public func onMenuShown(_ handler: @escaping (MenuButton) -> Void) -> SignalConnection? {
        guard let popover = gtk_menu_button_get_popover(opaque) else { return nil }
        return connectVoid("show", of: UnsafeMutableRawPointer(popover), self, handler)
    }

    /// The menu closed (an item chosen, Escape, a click elsewhere).
    @discardableResult
    public func onMenuClosed(_ handler: @escaping (MenuButton) -> Void) -> SignalConnection? {
        guard let popover = gtk_menu_button_get_popover(opaque) else { return nil }
        return connectVoid("closed", of: UnsafeMutableRawPointer(popover), self, handler)
    }

    /// Adds an event controller to its menu (a surface of its own: the window's controllers
    /// do not see the keys pressed in it).
    public func addMenuController(_ controller: EventController) {
        guard let popover = gtk_menu_button_get_popover(opaque) else { return }
        g_object_ref(controller.raw)  // the menu takes a reference; ours stays with the wrapper
        gtk_widget_add_controller(UnsafeMutableRawPointer(popover).assumingMemoryBound(to: GtkWidget.self), controller.opaque)
    }

    /// Opens its menu, as a click does.
    public func popup() {
        gtk_menu_button_popup(opaque)
    }

    /// The primary menu opens with F10.
    public var isPrimary: Bool {
        get { gtk_menu_button_get_primary(opaque) != 0 }
        set { gtk_menu_button_set_primary(opaque, newValue ? 1 : 0) }
    }
}
