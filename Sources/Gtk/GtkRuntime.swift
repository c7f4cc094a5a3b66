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

    /// Keeps GTK from calling `setlocale` when it starts: the app has set the locale itself
    /// (GTK's call would undo the app's choices). Before the application runs.
    public static func leaveLocaleToApplication() {
        gtk_disable_setlocale()
    }

    /// True while code runs from inside a GLib main-loop dispatch (a signal, a source).
    public static var isInsideMainLoopDispatch: Bool { g_main_depth() > 0 }
}
