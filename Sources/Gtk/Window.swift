import CGtk

/// A toplevel window. Destroy it with `destroy()`; the wrapper keeps its own reference until
/// the Swift object goes, but GTK disposes the window (and disconnects its handlers) at once.
public class Window: Widget {
    var window: UnsafeMutablePointer<GtkWindow> { ptr() }

    public convenience init() {
        self.init(floating: gtk_window_new())
    }

    public var title: String {
        get { gtk_window_get_title(window).map { String(cString: $0) } ?? "" }
        set { gtk_window_set_title(window, newValue) }
    }

    public var child: Widget? {
        didSet { gtk_window_set_child(window, child?.widget) }
    }

    public var titlebar: Widget? {
        didSet { gtk_window_set_titlebar(window, titlebar?.widget) }
    }

    public func setDefaultSize(width: Int, height: Int) {
        gtk_window_set_default_size(window, Int32(width), Int32(height))
    }

    /// The size the window would restore to (not maximized).
    public var defaultSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        gtk_window_get_default_size(window, &w, &h)
        return (Int(w), Int(h))
    }

    public var isMaximized: Bool { gtk_window_is_maximized(window) != 0 }
    public func maximize() { gtk_window_maximize(window) }

    public var isModal: Bool {
        get { gtk_window_get_modal(window) != 0 }
        set { gtk_window_set_modal(window, newValue ? 1 : 0) }
    }

    public var transientFor: Window? {
        didSet { gtk_window_set_transient_for(window, transientFor?.window) }
    }

    public func present() { gtk_window_present(window) }
    public func close() { gtk_window_close(window) }

    /// Destroys the toplevel: GTK drops it, and it is disposed now even though this wrapper
    /// still holds it, so its handlers are disconnected (their boxes released) and its
    /// children let go at once, not whenever Swift frees the wrapper.
    public func destroy() {
        gtk_window_destroy(window)
        g_object_run_dispose(raw.assumingMemoryBound(to: GObject.self))
    }

    /// Called when the user (or `close()`) asks to close; return true to keep the window open.
    @discardableResult
    public func onCloseRequest(_ handler: @escaping (Window) -> Bool) -> SignalConnection {
        connectBool("close-request", self, handler)
    }
}
