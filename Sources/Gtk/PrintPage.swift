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

    /// Draws a decoded picture (`PixbufDecoder`) into the box at (`x`, `y`), `width` × `height`
    /// points.
    @MainActor
    public func drawPicture(_ picture: DecodedImage, x: Double, y: Double, width: Double, height: Double) {
        let texture = picture.texture
        let pixelWidth = Int32(clamping: picture.width), pixelHeight = Int32(clamping: picture.height)
        guard pixelWidth > 0, pixelHeight > 0, let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelWidth, pixelHeight) else { return }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        guard let pixels = cairo_image_surface_get_data(surface) else { return }
        gdk_texture_download(texture, pixels, gsize(cairo_image_surface_get_stride(surface)))
        cairo_surface_mark_dirty(surface)
        let cairo = gtk_print_context_get_cairo_context(context)
        cairo_save(cairo)
        cairo_translate(cairo, x, y)
        cairo_scale(cairo, width / Double(pixelWidth), height / Double(pixelHeight))
        cairo_set_source_surface(cairo, surface, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }
}
