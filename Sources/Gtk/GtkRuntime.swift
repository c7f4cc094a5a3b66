import CGtk

/// Initialising GTK outside a GtkApplication (tests, tools), and facts about the loop.
public enum GtkRuntime {
    private static var initialised = false

    /// Initialises GTK once and installs the main-loop bridge. False when there is no display.
    @discardableResult
    public static func initialize() -> Bool {
        if initialised { return true }
        guard gtk_init_check() != 0 else { return false }
        MainLoopBridge.install()
        initialised = true
        return true
    }

    /// True while code runs from inside a GLib main-loop dispatch (a signal, a source).
    public static var isInsideMainLoopDispatch: Bool { g_main_depth() > 0 }
}
