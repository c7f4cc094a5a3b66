import CGtk
import Dispatch

/// A toplevel window. Destroy it with `destroy()`; the wrapper keeps its own reference until
/// the Swift object goes, but GTK disposes the window (and disconnects its handlers) at once.
///
/// Closing (`close()`, Escape handlers, the title bar's ×) ends the same way: GTK's close only
/// drops GTK's own reference (`gtk_window_destroy`), so a window whose wrapper is still held
/// would never be disposed and "destroy" would never come — the owner would keep a dead
/// window and show it again, unclosable. Unless a close-request handler kept the window open
/// (or it hides on close), the wrapper disposes it right after GTK let it go.
public class Window: Widget {
    var window: UnsafeMutablePointer<GtkWindow> { ptr() }

    override init(floating pointer: UnsafeMutablePointer<GtkWidget>?) {
        super.init(floating: pointer)
        connectBool("close-request", self) { window in
            // After GTK's own handling of this close (which runs when the handlers return).
            DispatchQueue.main.async { [weak window] in window?.disposeIfClosed() }
            return false
        }
    }

    /// Whether GTK still lists the window among its toplevels (it was not closed, or was kept).
    public var isToplevel: Bool {
        let toplevels = gtk_window_get_toplevels()
        let count = g_list_model_get_n_items(toplevels)
        for index in 0..<count {
            guard let item = g_list_model_get_item(toplevels, index) else { continue }
            defer { g_object_unref(item) }
            if item == raw { return true }
        }
        return false
    }

    private func disposeIfClosed() {
        guard !isToplevel, !isDisposed else { return }
        isDisposed = true
        g_object_run_dispose(raw.assumingMemoryBound(to: GObject.self))
    }

    private var isDisposed = false

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
        gtk_window_set_default_size(window, Int32(clamping: width), Int32(clamping: height))
    }

    /// The largest monitor's size in pixels (logical), or nil without a display: a window
    /// asked to be larger would reach past the screen.
    public static var largestScreenSize: (width: Int, height: Int)? {
        guard let display = gdk_display_get_default(), let monitors = gdk_display_get_monitors(display) else { return nil }
        var largest: (width: Int, height: Int)?
        for index in 0..<g_list_model_get_n_items(monitors) {
            guard let item = g_list_model_get_item(monitors, index) else { continue }
            defer { g_object_unref(item) }
            var area = GdkRectangle()
            gdk_monitor_get_geometry(OpaquePointer(item), &area)
            if Int(area.width) * Int(area.height) > (largest.map { $0.width * $0.height } ?? 0) {
                largest = (Int(area.width), Int(area.height))
            }
        }
        return largest
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
        guard !isDisposed else { return }
        isDisposed = true
        g_object_run_dispose(raw.assumingMemoryBound(to: GObject.self))
    }

    /// Called when the user (or `close()`) asks to close; return true to keep the window open.
    @discardableResult
    public func onCloseRequest(_ handler: @escaping (Window) -> Bool) -> SignalConnection {
        connectBool("close-request", self, handler)
    }
}
