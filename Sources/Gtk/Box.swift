import CGtk

public enum Orientation {
    case horizontal, vertical
    var gtk: GtkOrientation { self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL }
}

public final class Box: Widget {
    public init(_ orientation: Orientation, spacing: Int = 0) {
        super.init(floating: gtk_box_new(orientation.gtk, Int32(spacing)))
    }

    public func append(_ child: Widget) { gtk_box_append(ptr(), child.widget) }
    public func prepend(_ child: Widget) { gtk_box_prepend(ptr(), child.widget) }
    public func remove(_ child: Widget) { gtk_box_remove(ptr(), child.widget) }
}
