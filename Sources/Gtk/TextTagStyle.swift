import CGtk

/// How a text tag draws the text it covers. Unset fields leave the text as it is; setting a
/// tag's style again replaces every field (so a light → dark switch can unset a colour).
public struct TextTagStyle {
    public var bold = false
    public var italic = false
    public var underline = false
    /// A wavy underline in this CSS colour, as for a misspelled word (Pango's "error" style;
    /// GTK tells screen readers "underline: error" for it).
    public var errorUnderline: String?
    public var strikethrough = false
    /// Relative size (1.0 = the view's font size).
    public var scale: Double?
    /// A font family, e.g. "monospace".
    public var family: String?
    /// CSS colours ("#rrggbb", "rgba(…)").
    public var foreground: String?
    public var background: String?
    /// The background of the whole line (paragraph) the text is on.
    public var lineBackground: String?
    /// Extra pixels above the line (paragraph), e.g. before a heading.
    public var pixelsAbove: Int?
    /// Extra pixels below the line (paragraph), e.g. room for a picture shown there.
    public var pixelsBelow: Int?

    public init(bold: Bool = false, italic: Bool = false, underline: Bool = false, errorUnderline: String? = nil, strikethrough: Bool = false,
                scale: Double? = nil, family: String? = nil, foreground: String? = nil, background: String? = nil,
                lineBackground: String? = nil, pixelsAbove: Int? = nil, pixelsBelow: Int? = nil) {
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.errorUnderline = errorUnderline
        self.strikethrough = strikethrough
        self.scale = scale
        self.family = family
        self.foreground = foreground
        self.background = background
        self.lineBackground = lineBackground
        self.pixelsAbove = pixelsAbove
        self.pixelsBelow = pixelsBelow
    }

    func apply(to tag: UnsafeMutableRawPointer) {
        // Pango's values: PANGO_WEIGHT_BOLD 700, PANGO_STYLE_ITALIC 2, PANGO_UNDERLINE_SINGLE 1.
        set(tag, "weight", bold ? 700 : nil)
        set(tag, "style", italic ? 2 : nil)
        if let errorUnderline {
            notula_text_tag_set_error_underline(tag, errorUnderline)
        } else {
            notula_text_tag_set_error_underline(tag, nil)
            set(tag, "underline", underline ? 1 : nil)
        }
        notula_object_set_boolean(tag, "strikethrough-set", strikethrough ? 1 : 0)
        if strikethrough { notula_object_set_boolean(tag, "strikethrough", 1) }
        if let scale { notula_object_set_double(tag, "scale", scale) } else { notula_object_set_boolean(tag, "scale-set", 0) }
        set(tag, "family", family)
        set(tag, "foreground", foreground)
        set(tag, "background", background)
        set(tag, "paragraph-background", lineBackground)
        set(tag, "pixels-above-lines", pixelsAbove)
        set(tag, "pixels-below-lines", pixelsBelow)
    }

    private func set(_ tag: UnsafeMutableRawPointer, _ property: String, _ value: Int?) {
        if let value { notula_object_set_int(tag, property, Int32(clamping: value)) } else { notula_object_set_boolean(tag, property + "-set", 0) }
    }

    private func set(_ tag: UnsafeMutableRawPointer, _ property: String, _ value: String?) {
        if let value { notula_object_set_string(tag, property, value) } else { notula_object_set_boolean(tag, property + "-set", 0) }
    }
}
