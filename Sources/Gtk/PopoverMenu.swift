import CGtk
import Dispatch

/// A menu that pops up beside a widget (a context menu), its items acting through the
/// widget's actions. Made for one showing: it leaves its widget once closed.
public final class PopoverMenu: Widget {
    public init(_ menu: Menu, on parent: Widget) {
        super.init(floating: gtk_popover_menu_new_from_model(menu.ptr()))
        gtk_widget_set_parent(widget, parent.widget)
        gtk_popover_set_has_arrow(ptr(), 0)
        gtk_widget_set_halign(widget, GTK_ALIGN_START)
        connectVoid("closed", self) { popover in
            // After the item's action ran (GTK closes the menu first).
            DispatchQueue.main.async { gtk_widget_unparent(popover.widget) }
        }
    }

    /// Shows the menu pointing at (x, y) of its widget.
    public func popup(x: Double, y: Double) {
        var rect = GdkRectangle(x: Int32(clamping: x), y: Int32(clamping: y), width: 1, height: 1)
        gtk_popover_set_pointing_to(ptr(), &rect)
        gtk_popover_popup(ptr())
    }
}
