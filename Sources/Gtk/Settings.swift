import CGtk

/// The display's GtkSettings: the theme GTK draws with. GTK owns the object; keep one wrapper
/// (a second would add a second toggle reference, and toggle references stop notifying).
public final class Settings: Object {
    /// The default display's settings, or nil before GTK is initialised.
    public static func forDefaultDisplay() -> Settings? {
        guard let settings = gtk_settings_get_default() else { return nil }
        return Settings(UnsafeMutableRawPointer(settings), .floatingOrBorrowed)
    }

    /// "gtk-application-prefer-dark-theme": the theme's dark variant (Adwaita's) for this app.
    public var prefersDarkTheme: Bool {
        get { notula_object_get_boolean(raw, "gtk-application-prefer-dark-theme") != 0 }
        set { notula_object_set_boolean(raw, "gtk-application-prefer-dark-theme", newValue ? 1 : 0) }
    }

    /// "gtk-theme-name" (settings.ini or the desktop's XSettings), e.g. "Adwaita".
    public var themeName: String? {
        guard let value = notula_object_copy_string(raw, "gtk-theme-name") else { return nil }
        defer { g_free(value) }
        return String(cString: value)
    }
}
