import CGtk

/// One GSettings schema of the desktop (GNOME's keyboard shortcuts, say), read and written
/// through the user's settings backend (dconf; a key file when GSETTINGS_BACKEND says so).
/// Only string and string-list keys: what keyboard shortcuts are made of.
public final class DesktopSettings: Object {
    private let schema: OpaquePointer

    /// Whether the schema `id` is installed (nil from `init` otherwise: GLib aborts on a
    /// schema it does not know).
    public static func isInstalled(_ id: String) -> Bool {
        lookup(id).map { g_settings_schema_unref($0); return true } ?? false
    }

    private static func lookup(_ id: String) -> OpaquePointer? {
        guard let source = g_settings_schema_source_get_default() else { return nil }
        return g_settings_schema_source_lookup(source, id, 1)
    }

    /// The settings of schema `id`; a relocatable schema needs its `path` ("/org/…/" ending in "/").
    public init?(schema id: String, path: String? = nil) {
        guard let schema = Self.lookup(id) else { return nil }
        let isRelocatable = g_settings_schema_get_path(schema) == nil
        guard isRelocatable == (path != nil) else {
            g_settings_schema_unref(schema)
            return nil
        }
        self.schema = schema
        guard let settings = g_settings_new_full(schema, nil, path) else {
            g_settings_schema_unref(schema)
            return nil
        }
        super.init(UnsafeMutableRawPointer(settings), .full)
    }

    isolated deinit { g_settings_schema_unref(schema) }

    private var settings: UnsafeMutablePointer<GSettings> { ptr() }

    /// The schema's keys.
    public var keys: [String] { takeStrings(g_settings_schema_list_keys(schema)) }

    /// The key's one-line description in the schema ("Switch to workspace 1"), if it has one.
    public func summary(of key: String) -> String? {
        guard g_settings_schema_has_key(schema, key) != 0, let schemaKey = g_settings_schema_get_key(schema, key) else { return nil }
        defer { g_settings_schema_key_unref(schemaKey) }
        return g_settings_schema_key_get_summary(schemaKey).map { String(cString: $0) }
    }

    /// A string key's value, or a string list's items; [] for a key of another type or none.
    public func strings(_ key: String) -> [String] {
        guard g_settings_schema_has_key(schema, key) != 0, let value = g_settings_get_value(settings, key) else { return [] }
        defer { g_variant_unref(value) }
        let type = String(cString: g_variant_get_type_string(value))
        if type == "as" {
            var count = 0
            guard let items = g_variant_get_strv(value, &count) else { return [] }
            defer { g_free(items) }
            return (0..<count).compactMap { items[$0].map { String(cString: $0) } }
        }
        if type == "s" {
            return [String(cString: g_variant_get_string(value, nil))]
        }
        return []
    }

    /// Sets a string key; false when the key is not writable or not a string.
    @discardableResult
    public func set(_ key: String, string: String) -> Bool {
        g_settings_set_string(settings, key, string) != 0
    }

    /// Sets a string-list key; false when the key is not writable or not a list of strings.
    @discardableResult
    public func set(_ key: String, strings: [String]) -> Bool {
        withCStrings(strings) { g_settings_set_strv(settings, key, $0) != 0 }
    }

    /// The key back to its default (removed from the user's settings).
    public func reset(_ key: String) { g_settings_reset(settings, key) }

    /// Waits until every change made is written to the backend (dconf, the key file).
    public static func sync() { g_settings_sync() }
}
