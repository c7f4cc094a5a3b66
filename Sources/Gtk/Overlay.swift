import CGtk

/// A child with widgets floating above it (toasts).
public final class Overlay: Widget {
    public init() {
        super.init(floating: gtk_overlay_new())
    }

    public var child: Widget? {
        didSet { gtk_overlay_set_child(opaque, child?.widget) }
    }

    public func addOverlay(_ widget: Widget) { gtk_overlay_add_overlay(opaque, widget.widget) }
}
