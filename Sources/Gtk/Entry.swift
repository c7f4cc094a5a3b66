import CGtk

/// A one-line text field.
public final class Entry: Widget {
    public init() {
        super.init(floating: gtk_entry_new())
    }

    public var text: String {
        get { String(cString: gtk_editable_get_text(opaque)) }
        set { gtk_editable_set_text(opaque, newValue) }
    }

    /// Selects all the text (so typing replaces a suggested name).
    /// The grey hint shown while the field is empty.
    public func setPlaceholder(_ text: String) {
        gtk_entry_set_placeholder_text(ptr(), text)
    }

    public func selectAll() {
        gtk_editable_select_region(opaque, 0, -1)
    }

    /// Enter in the field.
    @discardableResult
    public func onActivate(_ handler: @escaping (Entry) -> Void) -> SignalConnection {
        connectVoid("activate", self, handler)
    }

    /// The text changed (typed, pasted, deleted or set).
    @discardableResult
    public func onChanged(_ handler: @escaping (Entry) -> Void) -> SignalConnection {
        connectVoid("changed", self, handler)
    }
}
