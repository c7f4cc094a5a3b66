import CGtk

/// Keyboard accelerators in GTK's syntax ("<Control><Shift>n").
public enum Accelerator {
    /// The accelerator as GTK writes it back ("<Shift><Control>n"), nil when GTK cannot parse it.
    public static func canonical(_ accelerator: String) -> String? {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        guard gtk_accelerator_parse(accelerator, &key, &modifiers) != 0, let name = gtk_accelerator_name(key, modifiers) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}
