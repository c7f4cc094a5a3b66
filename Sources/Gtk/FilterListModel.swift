import CGtk

/// The items of a StringList that a StringFilter keeps, in the same order; GTK filters in C
/// and reports only what changed, so narrowing 10,000 rows creates no new items.
public final class FilterListModel: Object, ListModel {
    public let model: StringList
    public let filter: StringFilter

    public init(model: StringList, filter: StringFilter) {
        self.model = model
        self.filter = filter
        // The filter model takes full references; the wrappers keep their own.
        g_object_ref(model.raw)
        g_object_ref(filter.raw)
        super.init(UnsafeMutableRawPointer(gtk_filter_list_model_new(model.opaque, filter.ptr())!), .full)
    }

    public var count: Int { Int(g_list_model_get_n_items(opaque)) }
}
