import CGtk

public enum Orientation {
    case horizontal, vertical
    var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
}

public final class Box: Widget {
    public init(_ orientation: Orientation, spacing: Int = 0) {
        super.init(floating: gtk_box_new(orientation.gtk, Int32(clamping: spacing)))
    }

    public func append(_ child: Widget) { gtk_box_append(ptr(), child.widget) }

    /// All children get the same size.
    public var isHomogeneous: Bool {
        get { gtk_box_get_homogeneous(ptr()) != 0 }
        set { gtk_box_set_homogeneous(ptr(), newValue ? 1 : 0) }
    }
    public func prepend(_ child: Widget) { gtk_box_prepend(ptr(), child.widget) }
    public func remove(_ child: Widget) { gtk_box_remove(ptr(), child.widget) }
}
