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

    /// Asked to draw with Cairo (GSK_RENDERER=cairo: the usual way round a broken or slow
    /// OpenGL), GTK draws without OpenGL, yet GDK still sets OpenGL up as it opens the display:
    /// Mesa's software OpenGL and its LLVM, 59 MB resident for nothing (115 → 56 MB, an empty
    /// library under Xvfb). Then GDK is told to leave OpenGL out. Before GTK starts.
    public static func leaveOutOpenGLWhenDrawingWithCairo() {
        guard let renderer = g_getenv("GSK_RENDERER"), String(cString: renderer) == "cairo" else { return }
        // GTK 4.16 moved the switch from GDK_DEBUG (whose unknown keys it warns of) to GDK_DISABLE.
        let (variable, key) = gtk_get_minor_version() >= 16 ? ("GDK_DISABLE", "gl") : ("GDK_DEBUG", "gl-disable")
        let keys = g_getenv(variable).map { String(cString: $0) } ?? ""
        g_setenv(variable, keys.isEmpty ? key : keys + "," + key, 1)
    }

    /// True while code runs from inside a GLib main-loop dispatch (a signal, a source).
    public static var isInsideMainLoopDispatch: Bool { g_main_depth() > 0 }
}
