import CGtk

/// One object exported on the session bus (GDBus): an interface described by introspection
/// XML, whose method calls reach a Swift handler on the main loop with their arguments as
/// Swift values; the handler answers through `DBusCall`, now or later (from the main actor).
/// Registered on the shared session connection GApplication uses, before the application
/// owns its bus name: a call that D-Bus activation queued for that name finds the object.
/// Unregistered when this object goes.
@MainActor  // explicit for its isolated deinit (see Object)
public final class DBusObject {
    private let connection: OpaquePointer
    private let registration: guint

    /// Nil when there is no session bus or the XML does not describe one interface.
    public init?(path: String, interfaceXML: String, _ handler: @escaping (DBusCall) -> Void) {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        guard let node = g_dbus_node_info_new_for_xml(interfaceXML, &error) else {
            g_clear_error(&error)
            g_object_unref(UnsafeMutableRawPointer(connection))
            return nil
        }
        defer { g_dbus_node_info_unref(node) }
        guard let interface = node.pointee.interfaces?[0] else {
            g_object_unref(UnsafeMutableRawPointer(connection))
            return nil
        }
        var vtable = GDBusInterfaceVTable()  // copied by GDBus
        vtable.method_call = dbusMethodCall
        let box = Unmanaged.passRetained(SignalHandler<(DBusCall) -> Void>(handler)).toOpaque()
        let id = g_dbus_connection_register_object(connection, path, interface, &vtable, box, releaseBox, &error)
        guard id != 0 else {
            g_clear_error(&error)
            g_object_unref(UnsafeMutableRawPointer(connection))
            return nil
        }
        self.connection = connection
        registration = id
    }

    isolated deinit {  // GLib objects are ours on the main thread only
        g_dbus_connection_unregister_object(connection, registration)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }
}

/// A method call waiting for its answer. Exactly one answer goes back; a call dropped without
/// one is answered with an error, so the caller never waits for its timeout.
@MainActor
public final class DBusCall {
    public let method: String
    private let parameters: OpaquePointer
    private var invocation: OpaquePointer?

    fileprivate init(method: String, parameters: OpaquePointer, invocation: OpaquePointer) {
        self.method = method
        self.parameters = g_variant_ref(parameters)
        self.invocation = invocation
    }

    isolated deinit {
        fail("org.freedesktop.DBus.Error.Failed", message: "no answer")
        g_variant_unref(parameters)
    }

    /// The argument at `index` as a list of strings (`as`), or [] when it is not one.
    public func strings(at index: Int) -> [String] {
        guard let child = child(at: index, type: "as") else { return [] }
        defer { g_variant_unref(child) }
        var count: gsize = 0
        guard let array = g_variant_get_strv(child, &count) else { return [] }
        defer { g_free(array) }
        return (0..<Int(count)).compactMap { array[$0].map { String(cString: $0) } }
    }

    /// The argument at `index` as a string (`s`), or nil.
    public func string(at index: Int) -> String? {
        guard let child = child(at: index, type: "s") else { return nil }
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// The argument at `index` as an unsigned number (`u`), or nil.
    public func unsigned(at index: Int) -> UInt32? {
        guard let child = child(at: index, type: "u") else { return nil }
        defer { g_variant_unref(child) }
        return g_variant_get_uint32(child)
    }

    private func child(at index: Int, type: String) -> OpaquePointer? {
        guard index < Int(g_variant_n_children(parameters)), let child = g_variant_get_child_value(parameters, gsize(index)) else { return nil }
        guard String(cString: g_variant_get_type_string(child)) == type else {
            g_variant_unref(child)
            return nil
        }
        return child
    }

    /// Answers with no values.
    public func returnNothing() {
        answer(g_variant_new_tuple(nil, 0))
    }

    /// Answers with one list of strings (`(as)`).
    public func returnStrings(_ strings: [String]) {
        var array: [OpaquePointer?] = [withCStrings(strings) { g_variant_new_strv($0, gssize(strings.count)) }]
        answer(g_variant_new_tuple(&array, 1))
    }

    /// Answers with one list of dictionaries of strings (`(aa{sv})`, each value a string in a variant).
    public func returnDictionaries(_ dictionaries: [[(key: String, value: String)]]) {
        let dictionaryType = g_variant_type_new("a{sv}")
        defer { g_variant_type_free(dictionaryType) }
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        var dictionaryValues: [OpaquePointer?] = dictionaries.map { entries in
            var values: [OpaquePointer?] = entries.map { entry in
                g_variant_new_dict_entry(g_variant_new_string(entry.key), g_variant_new_variant(g_variant_new_string(entry.value)))
            }
            return g_variant_new_array(entryType, &values, gsize(values.count))
        }
        var array: [OpaquePointer?] = [g_variant_new_array(dictionaryType, &dictionaryValues, gsize(dictionaryValues.count))]
        answer(g_variant_new_tuple(&array, 1))
    }

    /// Answers with a D-Bus error (`name` such as org.freedesktop.DBus.Error.InvalidArgs).
    public func fail(_ name: String, message: String) {
        guard let invocation else { return }
        self.invocation = nil
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }

    private func answer(_ value: OpaquePointer?) {
        guard let invocation else {
            if let value { g_variant_unref(g_variant_ref_sink(value)) }
            return
        }
        self.invocation = nil
        g_dbus_method_invocation_return_value(invocation, value)  // takes the invocation and the floating value
    }
}

/// GDBusInterfaceMethodCallFunc: GDBus calls it in the main context of the thread that
/// registered the object (the main thread), handing over a reference to the invocation.
nonisolated private let dbusMethodCall: GDBusInterfaceMethodCallFunc = { _, _, _, _, method, parameters, invocation, data in
    guard let method, let parameters, let invocation else { return }
    nonisolated(unsafe) let call = (String(cString: method), parameters, invocation)
    onMainActor(data) { data, _ in
        let handler = SignalHandler<(DBusCall) -> Void>.from(data)
        let dbusCall = DBusCall(method: call.0, parameters: call.1, invocation: call.2)
        handler?(dbusCall)
    }
}
