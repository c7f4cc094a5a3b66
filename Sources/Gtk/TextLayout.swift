import CGtk

/// Text laid out for a printed page (a PangoLayout), read line by line so a paragraph can
/// break across pages between lines.
public final class TextLayout {
    let layout: OpaquePointer

    /// One line's place in the layout, in points from the layout's top.
    public struct Line: Sendable {
        public var top: Double
        public var width: Double
        public var height: Double
        public var baseline: Double
    }

    public let lines: [Line]

    init(taking layout: OpaquePointer) {
        self.layout = layout
        var lines: [Line] = []
        let iterator = pango_layout_get_iter(layout)
        let scale = Double(PANGO_SCALE)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            lines.append(Line(top: Double(logical.y) / scale, width: Double(logical.width) / scale, height: Double(logical.height) / scale,
                              baseline: Double(pango_layout_iter_get_baseline(iterator)) / scale))
        } while pango_layout_iter_next_line(iterator) != 0
        pango_layout_iter_free(iterator)
        self.lines = lines
    }

    isolated deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }
}
