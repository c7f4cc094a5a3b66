import CGtk

/// A popover that never takes the keyboard (no autohide, not focusable): suggestions shown
/// beside the text while the user types on (the text view's key handler drives it). It is
/// the widget's child only while shown, so no widget is finalised with it still inside.
public final class Popover: Widget {
    private weak var parent: Widget?

    public init(child: Widget) {
        super.init(floating: gtk_popover_new())
        gtk_popover_set_child(ptr(), child.widget)
        gtk_popover_set_autohide(ptr(), 0)
        gtk_popover_set_has_arrow(ptr(), 0)
        gtk_popover_set_position(ptr(), GTK_POS_BOTTOM)
        gtk_widget_set_halign(widget, GTK_ALIGN_START)
        gtk_widget_set_focusable(widget, 0)
        gtk_widget_set_can_focus(widget, 0)
    }

    public var isShown: Bool { parent != nil && gtk_widget_get_visible(widget) != 0 }

    /// Shows it below the rectangle (in `widget`'s coordinates).
    public func show(on widget: Widget, pointingTo x: Int, _ y: Int, width: Int, height: Int) {
        if parent !== widget {
            hide()
            gtk_widget_set_parent(self.widget, widget.widget)
            parent = widget
        }
        var rect = GdkRectangle(x: Int32(clamping: x), y: Int32(clamping: y), width: Int32(clamping: max(width, 1)), height: Int32(clamping: max(height, 1)))
        gtk_popover_set_pointing_to(ptr(), &rect)
        gtk_popover_popup(ptr())
    }

    public func hide() {
        guard parent != nil else { return }
        gtk_popover_popdown(ptr())
        gtk_widget_unparent(widget)
        parent = nil
    }
}
