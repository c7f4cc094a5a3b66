import CGtk

/// A button that opens a list of strings to choose one from (GtkDropDown over a string list).
public final class DropDown: Widget {
    public init(items: [String]) {
        var pointers = items.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        let widget = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                notula_drop_down_new($0, Int32(buffer.count))
            }
        }
        super.init(floating: widget)
    }

    /// The name is the inner button's too: GTK 4.8 exposes that button on its own, unnamed.
    public override var accessibleLabel: String {
        didSet {
            if let button = gtk_widget_get_first_child(widget) { notula_accessible_set_label(OpaquePointer(button), accessibleLabel) }
        }
    }

    /// The chosen item's index (nil: none).
    public var selected: Int? {
        get {
            let index = gtk_drop_down_get_selected(OpaquePointer(widget))
            return index == UInt32(GTK_INVALID_LIST_POSITION) ? nil : Int(index)
        }
        set { gtk_drop_down_set_selected(OpaquePointer(widget), newValue.map { UInt32($0) } ?? UInt32(GTK_INVALID_LIST_POSITION)) }
    }

    /// The choice changed (by the user or by `selected`).
    @discardableResult
    public func onSelected(_ handler: @escaping (DropDown) -> Void) -> SignalConnection {
        connectPointer("notify::selected", self) { dropDown, _ in handler(dropDown) }
    }
}
