import CGtk

/// A search field: a text entry with a search icon and a clear button. Escape emits
/// "stop-search"; "search-changed" comes as the user types (after GTK's short delay).
public final class SearchEntry: Widget {
    public init() {
        super.init(floating: gtk_search_entry_new())
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        set { gtk_editable_set_text(opaque, newValue) }
    }

    /// Adds `text` at the end, as typing it there would (the field is not emptied first, so
    /// "search-changed" comes once, after GTK's delay, for the longer text). For benchmarks.
    public func append(_ text: String) {
        // Positions count characters (code points), not bytes.
        var position = Int32(clamping: String(cString: gtk_editable_get_text(opaque)).unicodeScalars.count)
        gtk_editable_insert_text(opaque, text, -1, &position)
        gtk_editable_set_position(opaque, position)
    }

    /// Selects the whole text (typing replaces it).
    public func selectAll() {
        gtk_editable_select_region(opaque, 0, -1)
    }

    /// The grey hint shown while the field is empty.
    public func setPlaceholder(_ text: String) {
        notula_search_entry_set_placeholder(opaque, text)
    }

    @discardableResult
    public func onSearchChanged(_ handler: @escaping (SearchEntry) -> Void) -> SignalConnection {
        connectVoid("search-changed", self, handler)
    }

    /// Escape in the field.
    @discardableResult
    public func onStopSearch(_ handler: @escaping (SearchEntry) -> Void) -> SignalConnection {
        connectVoid("stop-search", self, handler)
    }

    /// Enter in the field.
    @discardableResult
    public func onActivate(_ handler: @escaping (SearchEntry) -> Void) -> SignalConnection {
        connectVoid("activate", self, handler)
    }
}
