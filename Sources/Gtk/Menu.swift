import CGtk

/// A GMenu model for menu buttons: items point at detailed action names.
public final class Menu: Object {
    public init() {
        super.init(UnsafeMutableRawPointer(g_menu_new()!), .full)
    }

    public func append(_ label: String, action: String) {
        g_menu_append(opaque, label, action)
    }

    /// An item without an action: shown greyed ("No Suggestions").
    public func appendInactive(_ label: String) {
        g_menu_append(opaque, label, nil)
    }

    public func appendSection(_ section: Menu) {
        g_menu_append_section(opaque, nil, section.ptr())
    }

    public func appendSubmenu(_ label: String, _ submenu: Menu) {
        g_menu_append_submenu(opaque, label, submenu.ptr())
    }

    /// Empties the menu (a menu showing it follows at once).
    public func removeAll() {
        g_menu_remove_all(opaque)
    }

    public var count: Int { Int(g_menu_model_get_n_items(ptr())) }
}
