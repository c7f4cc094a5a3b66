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

    /// The accelerator of a key press (`keyval` and the modifiers held, as a key controller
    /// gets them): the letter in lower case, only Shift, Control, Alt and Super kept.
    public static func of(keyval: UInt32, modifiers: UInt32) -> String? {
        let kept = GdkModifierType(rawValue: modifiers & (GDK_SHIFT_MASK.rawValue | GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue))
        guard let name = gtk_accelerator_name(gdk_keyval_to_lower(keyval), kept) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }

    /// Whether two accelerators are the same keys ("<Primary><Alt>t" and "<Control><Alt>T").
    public static func sameKeys(_ first: String, _ second: String) -> Bool {
        guard let one = parse(first), let other = parse(second) else { return false }
        return one == other
    }

    /// As the user reads it ("Ctrl+Alt+N"), in the user's language.
    public static func label(_ accelerator: String) -> String {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        guard gtk_accelerator_parse(accelerator, &key, &modifiers) != 0, let label = gtk_accelerator_get_label(key, modifiers) else { return accelerator }
        defer { g_free(label) }
        return String(cString: label)
    }

    /// Whether the key is a modifier alone (Shift, Control, Alt, Super…): no shortcut yet.
    public static func isModifier(_ keyval: UInt32) -> Bool {
        (0xFFE1...0xFFEE).contains(keyval) || (0xFE01...0xFE0F).contains(keyval)
    }

    /// Whether the press holds Control, Alt or Super (a shortcut for the whole desktop needs one).
    public static func hasCommandModifier(_ modifiers: UInt32) -> Bool {
        modifiers & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue) != 0
    }

    private struct Keys: Equatable {
        let key: UInt32
        let modifiers: UInt32
    }

    private static func parse(_ accelerator: String) -> Keys? {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        guard gtk_accelerator_parse(accelerator, &key, &modifiers) != 0, key != 0 else { return nil }
        return Keys(key: gdk_keyval_to_lower(key), modifiers: modifiers.rawValue & gtk_accelerator_get_default_mod_mask().rawValue)
    }
}
