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
}
