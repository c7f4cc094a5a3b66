import CGtk

/// The freedesktop settings portal (`org.freedesktop.portal.Settings` on the session bus):
/// reads one desktop setting and reports when it changes. Only unsigned values are read
/// (such as `org.freedesktop.appearance` `color-scheme`); anything else reads as nil.
/// Subscriptions end when this object goes.
@MainActor  // explicit for its isolated deinit (see Object)
public final class SettingsPortal {
    private static let busName = "org.freedesktop.portal.Desktop"
    private static let objectPath = "/org/freedesktop/portal/desktop"
    private static let interface = "org.freedesktop.portal.Settings"

    private let connection: OpaquePointer
    private var subscriptions: [guint] = []

    /// Nil when there is no session bus.
    public init?() {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        self.connection = connection
    }

    isolated deinit {  // GLib objects are ours on the main thread only
        for id in subscriptions { g_dbus_connection_signal_unsubscribe(connection, id) }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// The setting's value now, or nil when no portal answers within `timeout` milliseconds
    /// (none installed, or it does not know the key). Blocks: meant for start-up, before the
    /// window shows, so the first frame already has the right style.
    public func readUnsigned(namespace: String, key: String, timeout: Int32 = 1000) -> UInt32? {
        var items: [OpaquePointer?] = [g_variant_new_string(namespace), g_variant_new_string(key)]
        let parameters = g_variant_new_tuple(&items, 2)
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(connection, Self.busName, Self.objectPath, Self.interface, "Read",
                                                      parameters, nil, G_DBUS_CALL_FLAGS_NONE, timeout, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        guard g_variant_n_children(reply) == 1, let value = g_variant_get_child_value(reply, 0) else { return nil }
        defer { g_variant_unref(value) }
        return Self.unsigned(in: value)
    }

    /// Calls `handler` on the main loop with the new value (nil if not unsigned) whenever the
    /// portal announces a change of this setting (`SettingChanged`).
    public func onChange(namespace: String, key: String, _ handler: @escaping (UInt32?) -> Void) {
        let box = Unmanaged.passRetained(SignalHandler<(String, String, UInt32?) -> Void>({ changedNamespace, changedKey, value in
            if changedNamespace == namespace && changedKey == key { handler(value) }
        })).toOpaque()
        // arg0 (the namespace) lets the bus filter; the key is checked above.
        let id = g_dbus_connection_signal_subscribe(connection, Self.busName, Self.interface, "SettingChanged", Self.objectPath,
                                                    namespace, G_DBUS_SIGNAL_FLAGS_NONE, settingChanged, box, releaseBox)
        subscriptions.append(id)
    }

    /// The unsigned number inside `variant`, looking through the variants wrapped around it
    /// (`Read` returns the value inside one more variant than `ReadOne` and the signal do).
    nonisolated fileprivate static func unsigned(in variant: OpaquePointer) -> UInt32? {
        var current = g_variant_ref(variant)!
        while String(cString: g_variant_get_type_string(current)) == "v" {
            let inner = g_variant_get_variant(current)!
            g_variant_unref(current)
            current = inner
        }
        defer { g_variant_unref(current) }
        return String(cString: g_variant_get_type_string(current)) == "u" ? g_variant_get_uint32(current) : nil
    }
}

/// GDBusSignalCallback for `SettingChanged (s namespace, s key, v value)`.
/// GDBus calls it in the main context of the thread that subscribed: the main thread.
nonisolated private let settingChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "(ssv)" else { return }
    let strings = (0..<2).map { index -> String in
        let child = g_variant_get_child_value(parameters, gsize(index))!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }
    let value = g_variant_get_child_value(parameters, 2)!
    defer { g_variant_unref(value) }
    let changed = SettingsPortal.unsigned(in: value)
    onMainActor(data) { data, _ in SignalHandler<(String, String, UInt32?) -> Void>.from(data)?(strings[0], strings[1], changed) }
}
