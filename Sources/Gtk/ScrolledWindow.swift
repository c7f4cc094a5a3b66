import CGtk

public final class ScrolledWindow: Widget {
    public init() {
        super.init(floating: gtk_scrolled_window_new())
    }

    public var child: Widget? {
        didSet { gtk_scrolled_window_set_child(opaque, child?.widget) }
    }

    /// Scroll vertically only (text wraps, list rows fit the width).
    public func scrollVerticallyOnly() {
        gtk_scrolled_window_set_policy(opaque, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    }

    /// The height of the scrolled content, in pixels.
    public var verticalUpperBound: Double {
        gtk_adjustment_get_upper(gtk_scrolled_window_get_vadjustment(opaque))
    }

    /// The vertical scroll offset, in pixels.
    public var verticalOffset: Double {
        get { gtk_adjustment_get_value(gtk_scrolled_window_get_vadjustment(opaque)) }
        set { gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(opaque), newValue) }
    }

    /// The width of the visible area changed (the window or the pane was resized).
    @discardableResult
    public func onWidthChanged(_ handler: @escaping (ScrolledWindow) -> Void) -> SignalConnection {
        horizontal.connectVoid("changed", horizontal) { [weak self] _ in if let self { handler(self) } }
    }

    /// The content scrolled (or grew or shrank).
    @discardableResult
    public func onScrolled(_ handler: @escaping (ScrolledWindow) -> Void) -> SignalConnection {
        let connection = vertical.connectVoid("value-changed", vertical) { [weak self] _ in if let self { handler(self) } }
        vertical.connectVoid("changed", vertical) { [weak self] _ in if let self { handler(self) } }
        return connection
    }

    /// The width of the visible area, in pixels.
    public var visibleWidth: Double { gtk_adjustment_get_page_size(gtk_scrolled_window_get_hadjustment(opaque)) }

    private lazy var horizontal = Adjustment(gtk_scrolled_window_get_hadjustment(opaque))
    private lazy var vertical = Adjustment(gtk_scrolled_window_get_vadjustment(opaque))
}

/// A scroll bar's model (borrowed from its scrolled window), for its signals.
private final class Adjustment: Object {
    init(_ adjustment: UnsafeMutablePointer<GtkAdjustment>?) {
        super.init(UnsafeMutableRawPointer(adjustment!), .floatingOrBorrowed)
    }
}
