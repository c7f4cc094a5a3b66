import CGtk

/// Selects at most one item of a list model.
public final class SingleSelection: Object {
    public let model: ListModel
    public static let none = Int(GTK_INVALID_LIST_POSITION)

    public init(model: ListModel) {
        self.model = model
        g_object_ref(model.raw)  // the selection takes a full reference; the wrapper keeps its own
        super.init(UnsafeMutableRawPointer(gtk_single_selection_new(model.opaque)!), .full)
        gtk_single_selection_set_autoselect(opaque, 0)
        gtk_single_selection_set_can_unselect(opaque, 1)
    }

    /// The selected position, or nil.
    public var selected: Int? {
        get {
            let position = gtk_single_selection_get_selected(opaque)
            return position == GTK_INVALID_LIST_POSITION ? nil : Int(position)
        }
        set {
            // A position among ids GTK is not told of yet: GTK is told first.
            if let newValue, let ids = model as? IdListModel, newValue >= ids.count - ids.unannounced { ids.announceAll() }
            gtk_single_selection_set_selected(opaque, newValue.map(UInt32.init) ?? GTK_INVALID_LIST_POSITION)
        }
    }

    /// Our handlers of "selection-changed" (GTK's own, which draw the selected row, are not).
    private var handlers: [SignalConnection] = []

    @discardableResult
    public func onSelectionChanged(_ handler: @escaping (SingleSelection) -> Void) -> SignalConnection {
        let connection = connectUIntPair("selection-changed", self) { selection, _, _ in handler(selection) }
        handlers.append(connection)
        return connection
    }

    /// Selects `position` without telling the handlers: the same item selected again after its
    /// list was rebuilt is no choice of the user's.
    public func reselect(_ position: Int?) {
        let connected = handlers.filter { g_signal_handler_is_connected(raw, $0.id) != 0 }
        for connection in connected { g_signal_handler_block(raw, connection.id) }
        selected = position
        for connection in connected { g_signal_handler_unblock(raw, connection.id) }
    }
}
