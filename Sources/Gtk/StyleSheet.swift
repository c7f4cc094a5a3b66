import CGtk

/// Application-wide CSS, added to the default display.
public enum StyleSheet {
    public static func load(css: String) {
        guard let display = gdk_display_get_default(), let provider = gtk_css_provider_new() else { return }
        notula_css_provider_load(provider, css)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
    }

    /// CSS that a later call with the same `key` replaces (the editor's zoom), above `load`'s.
    public static func replace(css: String, key: String) {
        guard let display = gdk_display_get_default() else { return }
        if let old = replaceable[key] {
            gtk_style_context_remove_provider_for_display(display, old)
            g_object_unref(UnsafeMutableRawPointer(old))
        }
        guard let provider = gtk_css_provider_new() else { return }
        notula_css_provider_load(provider, css)
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION) + 1)
        replaceable[key] = OpaquePointer(provider)
    }
    private static var replaceable: [String: OpaquePointer] = [:]

    /// Takes away the CSS `replace` added under `key`.
    public static func remove(key: String) {
        guard let display = gdk_display_get_default(), let old = replaceable.removeValue(forKey: key) else { return }
        gtk_style_context_remove_provider_for_display(display, old)
        g_object_unref(UnsafeMutableRawPointer(old))
    }

    /// Adds a folder to the icon theme's search path (for running from the source tree).
    public static func addIconSearchPath(_ path: String) {
        guard let display = gdk_display_get_default() else { return }
        gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(display), path)
    }

    /// Sets the icon shown for windows that have none of their own.
    public static func setDefaultIconName(_ name: String) {
        gtk_window_set_default_icon_name(name)
    }
}
