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

    /// Asks for the content's natural height (up to `maxContentHeight`) instead of only a
    /// scroll bar's: a short content shows whole, a long one scrolls within that bound.
    public var propagatesNaturalHeight: Bool {
        get { gtk_scrolled_window_get_propagate_natural_height(opaque) != 0 }
        set { gtk_scrolled_window_set_propagate_natural_height(opaque, newValue ? 1 : 0) }
    }

    /// The most height the content asks for, in pixels (-1: no bound).
    public var maxContentHeight: Int {
        get { Int(gtk_scrolled_window_get_max_content_height(opaque)) }
        set { gtk_scrolled_window_set_max_content_height(opaque, Int32(clamping: newValue)) }
    }

    /// The least height it keeps, in pixels (-1: a scroll bar's).
    public var minContentHeight: Int {
        get { Int(gtk_scrolled_window_get_min_content_height(opaque)) }
        set { gtk_scrolled_window_set_min_content_height(opaque, Int32(clamping: newValue)) }
    }

    /// Scrolls just enough to show `descendant` (a widget inside the content) whole.
    public func scrollToShow(_ descendant: Widget) {
        // The child GTK scrolls (a viewport) is the visible area: coordinates in it are on screen.
        guard let visibleArea = gtk_scrolled_window_get_child(opaque) else { return }
        var x = 0.0, top = 0.0
        guard notula_widget_origin_in(descendant.widget, visibleArea, &x, &top) != 0 else { return }
        let adjustment = gtk_scrolled_window_get_vadjustment(opaque)
        let page = gtk_adjustment_get_page_size(adjustment), bottom = top + Double(descendant.height)
        if top < 0 {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + top)
        } else if bottom > page {
            gtk_adjustment_set_value(adjustment, gtk_adjustment_get_value(adjustment) + min(bottom - page, top))
        }
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
