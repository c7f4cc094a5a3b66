import CGtk

public final class Label: Widget {
    public init(_ text: String = "") {
        super.init(floating: gtk_label_new(text))
    }

    /// A label whose underlined letter (after "_") with Alt focuses `target` (a field it names).
    public init(mnemonic text: String, for target: Widget) {
        super.init(floating: gtk_label_new_with_mnemonic(text))
        gtk_label_set_mnemonic_widget(opaque, target.widget)
    }

    public var text: String {
        get { String(cString: gtk_label_get_text(opaque)) }
        set { gtk_label_set_text(opaque, newValue) }
    }

    /// Pango markup (callers escape user text with `Label.escape`).
    public func setMarkup(_ markup: String) { gtk_label_set_markup(opaque, markup) }

    public static func escape(_ text: String) -> String {
        guard let escaped = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    public var xalign: Float {
        get { gtk_label_get_xalign(opaque) }
        set { gtk_label_set_xalign(opaque, newValue) }
    }

    /// Cut long text with "…" at the end instead of widening the widget.
    public var ellipsizesAtEnd: Bool {
        get { gtk_label_get_ellipsize(opaque) == PANGO_ELLIPSIZE_END }
        set { gtk_label_set_ellipsize(opaque, newValue ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE) }
    }

    public var wraps: Bool {
        get { gtk_label_get_wrap(opaque) != 0 }
        set { gtk_label_set_wrap(opaque, newValue ? 1 : 0) }
    }

    /// Wrapped text asks for no more width than this many characters.
    public var maxWidthChars: Int {
        get { Int(gtk_label_get_max_width_chars(opaque)) }
        set { gtk_label_set_max_width_chars(opaque, Int32(clamping: newValue)) }
    }

    public var isSelectable: Bool {
        get { gtk_label_get_selectable(opaque) != 0 }
        set { gtk_label_set_selectable(opaque, newValue ? 1 : 0) }
    }
}
