import CGtk

/// One printed page being laid out or drawn (a GtkPrintContext, valid during the signal that
/// handed it out): its printable size in points, text laid out in its resolution, and the
/// drawing of text lines, rules and pictures at positions in points.
public final class PrintPage {
    private let context: OpaquePointer

    init(_ context: UnsafeMutableRawPointer) {
        self.context = OpaquePointer(context)
    }

    public var width: Double { gtk_print_context_get_width(context) }
    public var height: Double { gtk_print_context_get_height(context) }

    /// `markup` (Pango markup) wrapped to `width` points. Invalid markup is laid out as its text.
    public func layout(markup: String, width: Double) -> TextLayout {
        let layout = gtk_print_context_create_pango_layout(context)!
        pango_layout_set_width(layout, Int32(clamping: width * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        var error: UnsafeMutablePointer<GError>?
        if pango_parse_markup(markup, -1, 0, nil, nil, nil, &error) != 0 {
            pango_layout_set_markup(layout, markup, -1)
        } else {
            if let error { g_error_free(error) }
            pango_layout_set_text(layout, markup, -1)
        }
        return TextLayout(taking: layout)
    }

    /// Draws line `index` of `layout` with its left edge at `x` and its baseline at `baseline`.
    public func draw(_ layout: TextLayout, line index: Int, x: Double, baseline: Double) {
        guard let line = pango_layout_get_line_readonly(layout.layout, Int32(clamping: index)) else { return }
        let cairo = gtk_print_context_get_cairo_context(context)
        cairo_move_to(cairo, x, baseline)
        pango_cairo_show_layout_line(cairo, line)
    }

    /// A thin grey line from `x` over `width` points at height `y`.
    public func drawRule(x: Double, y: Double, width: Double) {
        let cairo = gtk_print_context_get_cairo_context(context)
        cairo_save(cairo)
        cairo_set_source_rgb(cairo, 0.75, 0.75, 0.74)
        cairo_set_line_width(cairo, 0.75)
        cairo_move_to(cairo, x, y)
        cairo_line_to(cairo, x + width, y)
        cairo_stroke(cairo)
        cairo_restore(cairo)
    }

    /// The size in pixels of the picture at `path`, read from its header, or nil when no loader
    /// reads it.
    public static func pictureSize(_ path: String) -> (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &width, &height) != nil, width > 0, height > 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// Draws the picture at `path` into the box at (`x`, `y`), `width` × `height` points,
    /// decoded at twice that many pixels (sharp on paper, bounded in memory). False when it
    /// cannot be read.
    @discardableResult
    public func drawPicture(_ path: String, x: Double, y: Double, width: Double, height: Double) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file_at_scale(path, Int32(clamping: max(width * 2, 1)), Int32(clamping: max(height * 2, 1)), 1, &error) else {
            if let error { g_error_free(error) }
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let cairo = gtk_print_context_get_cairo_context(context)
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        cairo_scale(cairo, width / Double(gdk_pixbuf_get_width(pixbuf)), height / Double(gdk_pixbuf_get_height(pixbuf)))
        gdk_cairo_set_source_pixbuf(cairo, pixbuf, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
        return true
    }
}
