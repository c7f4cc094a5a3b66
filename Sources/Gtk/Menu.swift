import CGtk

/// A GMenu model for menu buttons: items point at detailed action names.
public final class Menu: Object {
    public init() {
        super.init(UnsafeMutableRawPointer(g_menu_new()!), .full)
    }

    public func append(_ label: String, action: String) {
        g_menu_append(opaque, label, action)
    }

    /// An item whose label is shown as written: a note's words, where "_" would otherwise
    /// underline the next letter (a mnemonic).
    public func appendVerbatim(_ label: String, action: String) {
        append(String(label.flatMap { $0 == "_" ? ["_", "_"] : [$0] }), action: action)
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

    /// What each item does, in order, sections' items included: its detailed action name
    /// ("win.sort::title"), or "" for an item without an action.
    public var itemActions: [String] { Self.itemActions(of: ptr()) }

    private static func itemActions(of model: UnsafeMutablePointer<GMenuModel>) -> [String] {
        var actions: [String] = []
        for index in 0..<g_menu_model_get_n_items(model) {
            if let section = g_menu_model_get_item_link(model, index, G_MENU_LINK_SECTION) {
                actions += itemActions(of: section)
                g_object_unref(section)
                continue
            }
            actions.append(attribute(G_MENU_ATTRIBUTE_ACTION, of: model, at: index).map { action in
                attribute(G_MENU_ATTRIBUTE_TARGET, of: model, at: index).map { action + "::" + $0 } ?? action
            } ?? "")
        }
        return actions
    }

    private static func attribute(_ name: String, of model: UnsafeMutablePointer<GMenuModel>, at index: Int32) -> String? {
        guard let value = g_menu_model_get_item_attribute_value(model, index, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        guard String(cString: g_variant_get_type_string(value)) == "s" else { return nil }
        return String(cString: g_variant_get_string(value, nil))
    }
}
