import CGtk
import CIdList

/// One recycled row of a ListView, as the factory hands it out. Borrowed: valid inside the callback.
public struct ListItem {
    let raw: UnsafeMutableRawPointer

    /// The row's widget; the list item keeps a reference to it. Its accessible name is given
    /// again, for the list item to carry (GTK 4.12+: `notula_accessible_set_label`): a row
    /// kept aside and shown again may not change its name.
    public func setChild(_ child: Widget) {
        notula_list_item_set_child(OpaquePointer(raw), child.widget)
        child.applyAccessibleLabel()
    }

    /// Takes the row's widget out (it lives on while the caller holds its wrapper).
    public func removeChild() { notula_list_item_set_child(OpaquePointer(raw), nil) }

    /// The id of the item (an `IdListModel`'s) shown in this row.
    public var string: String? {
        notula_id_item_get_id(gtk_list_item_get_item(OpaquePointer(raw))).map { String(cString: $0) }
    }

    /// False: clicks and keys never select this row.
    public var isSelectable: Bool {
        get { gtk_list_item_get_selectable(OpaquePointer(raw)) != 0 }
        nonmutating set { gtk_list_item_set_selectable(OpaquePointer(raw), newValue ? 1 : 0) }
    }

    public var position: Int { Int(gtk_list_item_get_position(OpaquePointer(raw))) }

    /// A Swift object kept alive for as long as the list item (the row's controller).
    /// Stored with g_object_set_qdata_full so GLib releases it when the item goes.
    public var attachment: AnyObject? {
        get {
            guard let data = g_object_get_qdata(raw.assumingMemoryBound(to: GObject.self), ListItem.quark) else { return nil }
            return Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue()
        }
        nonmutating set {
            let data = newValue.map { Unmanaged.passRetained($0).toOpaque() }
            g_object_set_qdata_full(raw.assumingMemoryBound(to: GObject.self), ListItem.quark, data, data == nil ? nil : releaseBox)
        }
    }

    static let quark = g_quark_from_static_string("notula-list-item-attachment")
}
