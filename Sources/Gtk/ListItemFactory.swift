import CGtk

/// Makes and fills the recycled rows of a ListView.
public final class ListItemFactory: Object {
    public init() {
        super.init(UnsafeMutableRawPointer(gtk_signal_list_item_factory_new()!), .full)
    }

    /// Create the row's widgets once per recycled row.
    @discardableResult
    public func onSetup(_ handler: @escaping (ListItemFactory, ListItem) -> Void) -> SignalConnection {
        connectPointer("setup", self) { factory, item in if let item { handler(factory, ListItem(raw: item)) } }
    }

    /// Fill a row with the item it shows now.
    @discardableResult
    public func onBind(_ handler: @escaping (ListItemFactory, ListItem) -> Void) -> SignalConnection {
        connectPointer("bind", self) { factory, item in if let item { handler(factory, ListItem(raw: item)) } }
    }

    /// A row is destroyed (after its unbind): its widgets may be kept for a row made later.
    @discardableResult
    public func onTeardown(_ handler: @escaping (ListItemFactory, ListItem) -> Void) -> SignalConnection {
        connectPointer("teardown", self) { factory, item in if let item { handler(factory, ListItem(raw: item)) } }
    }

    /// A row stops showing its item: it is bound to another next, or destroyed (GTK 4.8 makes
    /// rows again after a change that removes them).
    @discardableResult
    public func onUnbind(_ handler: @escaping (ListItemFactory, ListItem) -> Void) -> SignalConnection {
        connectPointer("unbind", self) { factory, item in if let item { handler(factory, ListItem(raw: item)) } }
    }
}
