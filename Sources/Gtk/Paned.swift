import CGtk

/// Two panes with a draggable divider.
public final class Paned: Widget {
    public init(_ orientation: Orientation) {
        super.init(floating: gtk_paned_new(orientation.gtk))
    }

    /// The start pane; it keeps its size when the window grows and cannot shrink below its minimum.
    public var startChild: Widget? {
        didSet {
            gtk_paned_set_start_child(opaque, startChild?.widget)
            gtk_paned_set_resize_start_child(opaque, 0)
            gtk_paned_set_shrink_start_child(opaque, 0)
        }
    }

    /// The end pane; it takes the extra space.
    public var endChild: Widget? {
        didSet {
            gtk_paned_set_end_child(opaque, endChild?.widget)
            gtk_paned_set_resize_end_child(opaque, 1)
            gtk_paned_set_shrink_end_child(opaque, 0)
        }
    }

    /// The divider's position in pixels from the start.
    public var position: Int {
        get { Int(gtk_paned_get_position(opaque)) }
        set { gtk_paned_set_position(opaque, Int32(clamping: newValue)) }
    }
}
