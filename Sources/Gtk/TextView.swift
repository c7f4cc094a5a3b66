import CGtk

/// A multi-line text editor over a TextBuffer; wraps words.
public final class TextView: Widget {
    public let buffer: TextBuffer

    public init(buffer: TextBuffer) {
        self.buffer = buffer
        super.init(floating: gtk_text_view_new_with_buffer(buffer.buffer))
        gtk_text_view_set_wrap_mode(ptr(), GTK_WRAP_WORD_CHAR)
    }

    /// Whether typing changes the text. The cursor stays visible (steady, not blinking, while
    /// not editable, so the keyboard can still move through a read-only text): hiding it
    /// while the view is not focused leaves GTK's blink timeout running, and GTK 4.8 aborts
    /// in blink_cb (`cursor_visible` assertion) once focus comes back.
    public var isEditable: Bool {
        get { gtk_text_view_get_editable(ptr()) != 0 }
        set { gtk_text_view_set_editable(ptr(), newValue ? 1 : 0) }
    }

    /// Inserts text at the cursor as typing does: an undoable edit, refused when not editable.
    public func type(_ text: String) {
        gtk_text_buffer_insert_interactive_at_cursor(buffer.buffer, text, -1, gtk_text_view_get_editable(ptr()))
    }

    /// The character offset of the text at the top-left of the visible area.
    public var topVisibleOffset: Int {
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(ptr(), &rect)
        var iter = GtkTextIter()
        gtk_text_view_get_iter_at_location(ptr(), &iter, rect.x, rect.y)
        return Int(gtk_text_iter_get_offset(&iter))
    }

    /// Scrolls so the line holding `offset` is at the top, once the text is laid out
    /// (GTK defers the scroll until then, so this works right after replacing the text).
    public func scrollToTop(ofOffset offset: Int) {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer.buffer, &iter, Int32(offset))
        let name = "notula-scroll-anchor"
        let mark: UnsafeMutablePointer<GtkTextMark>
        if let existing = gtk_text_buffer_get_mark(buffer.buffer, name) {
            gtk_text_buffer_move_mark(buffer.buffer, existing, &iter)
            mark = existing
        } else {
            mark = gtk_text_buffer_create_mark(buffer.buffer, name, &iter, 1)
        }
        gtk_text_view_scroll_to_mark(ptr(), mark, 0, 1, 0, 0)
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
