import CGtk

/// A window that belongs to an Application (it keeps the application running and gets `win.` actions).
public final class ApplicationWindow: Window {
    public init(application: Application) {
        super.init(floating: gtk_application_window_new(application.application))
    }

    public func add(_ action: SimpleAction) {
        g_action_map_add_action(opaque, action.opaque)
    }

    /// The names of the window's own actions ("print", not "win.print").
    public var actionNames: [String] { takeStrings(g_action_group_list_actions(opaque)) }

    /// Whether GTK shows a menubar from the application's menubar model (off: we use a header bar).
    public var showsMenubar: Bool {
        get { gtk_application_window_get_show_menubar(ptr()) != 0 }
        set { gtk_application_window_set_show_menubar(ptr(), newValue ? 1 : 0) }
    }
}
