import CGtk

/// A multi-line text editor over a TextBuffer; wraps words.
public final class TextView: Widget {
    public let buffer: TextBuffer

    public init(buffer: TextBuffer) {
        self.buffer = buffer
        super.init(floating: gtk_text_view_new_with_buffer(buffer.buffer))
        gtk_text_view_set_wrap_mode(ptr(), GTK_WRAP_WORD_CHAR)
    }

    public var isEditable: Bool {
        get { gtk_text_view_get_editable(ptr()) != 0 }
        set {
            gtk_text_view_set_editable(ptr(), newValue ? 1 : 0)
            gtk_text_view_set_cursor_visible(ptr(), newValue ? 1 : 0)
        }
    }

    /// Inserts text at the cursor as typing does: an undoable edit, refused when not editable.
    public func type(_ text: String) {
        gtk_text_buffer_insert_interactive_at_cursor(buffer.buffer, text, -1, gtk_text_view_get_editable(ptr()))
    }

    /// Space between the text and the view's edges, in pixels.
    public func setTextMargins(horizontal: Int, vertical: Int) {
        gtk_text_view_set_left_margin(ptr(), Int32(horizontal))
        gtk_text_view_set_right_margin(ptr(), Int32(horizontal))
        gtk_text_view_set_top_margin(ptr(), Int32(vertical))
        gtk_text_view_set_bottom_margin(ptr(), Int32(vertical))
    }

    public func setPixelsBetweenLines(above: Int, below: Int) {
        gtk_text_view_set_pixels_above_lines(ptr(), Int32(above))
        gtk_text_view_set_pixels_below_lines(ptr(), Int32(below))
    }
}
