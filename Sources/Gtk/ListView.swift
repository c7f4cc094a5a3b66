import CGtk

/// A scalable list (rows are recycled): thousands of items cost only the visible rows.
public final class ListView: Widget {
    public let selection: SingleSelection
    public let factory: ListItemFactory

    public init(selection: SingleSelection, factory: ListItemFactory) {
        self.selection = selection
        self.factory = factory
        // gtk_list_view_new takes full references to both; the wrappers keep their own.
        g_object_ref(selection.raw)
        g_object_ref(factory.raw)
        super.init(floating: gtk_list_view_new(selection.opaque, factory.opaque))
        if let ids = selection.model as? IdListModel {
            factory.onBind { [weak ids] _, item in ids?.keep(item) }
        }
    }

    /// Enter or double-click on a row.
    @discardableResult
    public func onActivate(_ handler: @escaping (ListView, Int) -> Void) -> SignalConnection {
        connectInt("activate", self) { list, position in handler(list, Int(position)) }
    }

    /// Scrolls so that the item at `position` is visible (GTK 4.8 has no scroll_to: use the list's action).
    public func scrollTo(_ position: Int) {
        gtk_widget_activate_action_variant(widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(clamping: position)))
    }
}
