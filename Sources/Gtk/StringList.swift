import CGtk

/// A GListModel of strings (the list shows ids; rows look the rest up).
public final class StringList: Object, ListModel {
    public init() {
        super.init(UnsafeMutableRawPointer(gtk_string_list_new(nil)!), .full)
    }

    public var count: Int { Int(g_list_model_get_n_items(opaque)) }

    public subscript(position: Int) -> String? {
        gtk_string_list_get_string(opaque, UInt32(position)).map { String(cString: $0) }
    }

    public var all: [String] { (0..<count).compactMap { self[$0] } }

    /// Removes `removing` items at `position` and inserts `inserting` there, in one change.
    public func splice(at position: Int, removing: Int, inserting: [String]) {
        withCStrings(inserting) { gtk_string_list_splice(opaque, UInt32(position), UInt32(removing), $0) }
    }
}
