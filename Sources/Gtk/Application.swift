import CGtk

/// A GtkApplication: single instance through D-Bus (launching again activates the first, and
/// hands it the files given on the command line), D-Bus activatable (`--gapplication-service`
/// starts it with no window, to answer calls, until it is idle for the inactivity timeout).
public final class Application: Object {
    var application: UnsafeMutablePointer<GtkApplication> { ptr() }
    var gApplication: UnsafeMutablePointer<GApplication> { ptr() }

    public init(id: String) {
        MainLoopBridge.install()
        super.init(UnsafeMutableRawPointer(gtk_application_new(id, G_APPLICATION_HANDLES_OPEN)!), .full)
    }

    public var id: String { g_application_get_application_id(gApplication).map { String(cString: $0) } ?? "" }

    /// True in a second launch whose work is forwarded to the instance already running.
    private var switches: [String] = []

    public var isRemote: Bool { g_application_get_is_remote(gApplication) != 0 }

    @discardableResult
    public func onStartup(_ handler: @escaping (Application) -> Void) -> SignalConnection {
        connectVoid("startup", self) { application in
            notula_name_menu_items()
            handler(application)
        }
    }

    @discardableResult
    public func onActivate(_ handler: @escaping (Application) -> Void) -> SignalConnection {
        connectVoid("activate", self, handler)
    }

    @discardableResult
    public func onShutdown(_ handler: @escaping (Application) -> Void) -> SignalConnection {
        connectVoid("shutdown", self, handler)
    }

    /// Files given on the command line (`notula note.md`), as local paths, in the instance running.
    @discardableResult
    public func onOpen(_ handler: @escaping (Application, [String]) -> Void) -> SignalConnection {
        connectFiles("open", self, handler)
    }

    /// Started by D-Bus activation (`--gapplication-service`): no window unless asked for one.
    public var isService: Bool { g_application_get_flags(gApplication).rawValue & G_APPLICATION_IS_SERVICE.rawValue != 0 }

    /// How long the application stays once nothing holds it (no window, no `hold`), in
    /// milliseconds: a service ends by itself when idle.
    public func setInactivityTimeout(_ milliseconds: UInt32) {
        g_application_set_inactivity_timeout(gApplication, milliseconds)
    }

    /// Declares a `--long-name` switch without argument, shown in `--help`.
    public func addSwitch(_ longName: String, description: String) {
        switches.append(longName)
        g_application_add_main_option(gApplication, longName, 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, description, nil)
    }

    /// Runs in the launching process, before registration, with the switches given on the
    /// command line; return nil to continue (activate) or an exit status to stop there.
    @discardableResult
    public func onLocalOptions(_ handler: @escaping (Application, Set<String>) -> Int32?) -> SignalConnection {
        connectOptions("handle-local-options", self) { app, dict in
            let given = Set(app.switches.filter { g_variant_dict_contains(dict?.assumingMemoryBound(to: GVariantDict.self), $0) != 0 })
            return handler(app, given) ?? -1
        }
    }

    /// Registers with the session bus now (to learn `isRemote` early).
    public func register() throws {
        var error: UnsafeMutablePointer<GError>?
        if g_application_register(gApplication, nil, &error) == 0 { throw GLibError(taking: error) }
    }

    /// Runs the main loop with the process arguments; returns the exit status.
    public func run() -> Int32 {
        g_application_run(gApplication, CommandLine.argc, CommandLine.unsafeArgv)
    }

    public func quit() { g_application_quit(gApplication) }

    /// Keeps the application running without windows until `release()`.
    public func hold() { g_application_hold(gApplication) }
    public func release() { g_application_release(gApplication) }

    public func add(_ action: SimpleAction) {
        g_action_map_add_action(opaque, action.opaque)
        actionNames.append(action.name)
    }

    /// Activates one of this application's actions (forwarded to the primary instance when remote).
    public func activateAction(_ name: String) {
        g_action_group_activate_action(opaque, name, nil)
    }

    /// Keyboard accelerators ("<Control>n") for a detailed action name ("app.new-note").
    public func setAccelerators(_ accels: [String], for action: String) {
        withCStrings(accels) { gtk_application_set_accels_for_action(application, action, $0) }
    }

    public func accelerators(for action: String) -> [String] {
        takeStrings(gtk_application_get_accels_for_action(application, action))
    }

    /// The names of the actions added here ("quit", not "app.quit"); GLib lists them only once
    /// the application is registered.
    public private(set) var actionNames: [String] = []
}

/// The strings of a NULL-terminated array GLib handed over, which it frees.
func takeStrings(_ list: UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> [String] {
    guard let list else { return [] }
    defer { g_strfreev(list) }
    var result: [String] = []
    var index = 0
    while let item = list[index] { result.append(String(cString: item)); index += 1 }
    return result
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let array: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return array.withUnsafeBufferPointer { body($0.baseAddress!) }
}
