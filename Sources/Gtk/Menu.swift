import CGtk

/// A GMenu model for menu buttons: items point at detailed action names.
public final class Menu: Object {
    public init() {
        super.init(UnsafeMutableRawPointer(g_menu_new()!), .full)
    }

    public func append(_ label: String, action: String) {
        g_menu_append(opaque, label, action)
    }

    public func appendSection(_ section: Menu) {
        g_menu_append_section(opaque, nil, section.ptr())
    }
}
