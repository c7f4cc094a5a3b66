import CGtk

/// A multi-line text editor over a TextBuffer; wraps words.
public class TextView: Widget {
    public let buffer: TextBuffer

    public convenience init(buffer: TextBuffer) {
        self.init(floating: gtk_text_view_new_with_buffer(buffer.buffer), buffer: buffer)
    }

    /// A new (floating) view of `buffer`, or of a subclass.
    init(floating view: UnsafeMutablePointer<GtkWidget>?, buffer: TextBuffer) {
        self.buffer = buffer
        super.init(floating: view)
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

    /// Hands the key event `keys` is handling to the view's input method before the view's
    /// own key handling does (which it would otherwise do first): true when the input method
    /// took the key — it continues or confirms a composition — and nothing else may be done
    /// with it. Call it only for a key the caller will then act on, so the input method sees
    /// each key once.
    public func inputMethodTakes(keyOf keys: KeyController) -> Bool {
        guard let event = gtk_event_controller_get_current_event(OpaquePointer(keys.raw)) else { return false }
        return gtk_text_view_im_context_filter_keypress(ptr(), event) != 0
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
        gtk_text_buffer_get_iter_at_offset(buffer.buffer, &iter, Int32(clamping: offset))
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

    /// Scrolls just enough to show the cursor, once the text up to it is laid out (GTK defers
    /// the scroll; scrolling at once would use the heights of lines not measured yet).
    public func scrollToCursor() {
        gtk_text_view_scroll_to_mark(ptr(), gtk_text_buffer_get_insert(buffer.buffer), 0, 0, 0, 0)
    }

    /// The lines (counted from 0) at least partly visible.
    public var visibleLines: ClosedRange<Int> {
        let rect = visibleRectangle
        var top = GtkTextIter(), bottom = GtkTextIter()
        var lineTop: Int32 = 0
        gtk_text_view_get_line_at_y(ptr(), &top, Int32(clamping: rect.y), &lineTop)
        gtk_text_view_get_line_at_y(ptr(), &bottom, Int32(clamping: rect.y + rect.height), &lineTop)
        let first = Int(gtk_text_iter_get_line(&top))
        return first...max(first, Int(gtk_text_iter_get_line(&bottom)))
    }

    /// Space between the text and the view's edges, in pixels.
    public func setTextMargins(horizontal: Int, vertical: Int) {
        gtk_text_view_set_left_margin(ptr(), Int32(clamping: horizontal))
        gtk_text_view_set_right_margin(ptr(), Int32(clamping: horizontal))
        gtk_text_view_set_top_margin(ptr(), Int32(clamping: vertical))
        gtk_text_view_set_bottom_margin(ptr(), Int32(clamping: vertical))
    }

    public var leftMargin: Int { Int(gtk_text_view_get_left_margin(ptr())) }
    public var rightMargin: Int { Int(gtk_text_view_get_right_margin(ptr())) }

    /// Left and right margins apart (readable width centres the text with them).
    public func setHorizontalMargins(left: Int, right: Int) {
        if Int(gtk_text_view_get_left_margin(ptr())) != left { gtk_text_view_set_left_margin(ptr(), Int32(clamping: left)) }
        if Int(gtk_text_view_get_right_margin(ptr())) != right { gtk_text_view_set_right_margin(ptr(), Int32(clamping: right)) }
    }

    // MARK: Positions (buffer coordinates: pixels from the top-left of the whole text)

    public struct Rectangle: Equatable {
        public var x, y, width, height: Int
    }

    /// Where the character at `offset` is drawn, once the text is laid out.
    public func rectangle(atOffset offset: Int) -> Rectangle {
        var iter = buffer.iterator(offset)
        var rect = GdkRectangle()
        gtk_text_view_get_iter_location(ptr(), &iter, &rect)
        return Rectangle(x: Int(rect.x), y: Int(rect.y), width: Int(rect.width), height: Int(rect.height))
    }

    /// The part of the text that is visible.
    public var visibleRectangle: Rectangle {
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(ptr(), &rect)
        return Rectangle(x: Int(rect.x), y: Int(rect.y), width: Int(rect.width), height: Int(rect.height))
    }

    /// A point of the view's own coordinates in buffer coordinates.
    public func bufferPoint(fromViewPoint x: Double, _ y: Double) -> (x: Int, y: Int) {
        var bufferX: Int32 = 0, bufferY: Int32 = 0
        gtk_text_view_window_to_buffer_coords(ptr(), GTK_TEXT_WINDOW_WIDGET, Int32(clamping: x), Int32(clamping: y), &bufferX, &bufferY)
        return (Int(bufferX), Int(bufferY))
    }

    /// The character under a point in the view's own coordinates (a click or the pointer),
    /// or nil when the point is beside the text (past a line's end, below the last line).
    public func offset(atViewPoint x: Double, _ y: Double) -> Int? {
        var bufferX: Int32 = 0, bufferY: Int32 = 0
        gtk_text_view_window_to_buffer_coords(ptr(), GTK_TEXT_WINDOW_WIDGET, Int32(clamping: x), Int32(clamping: y), &bufferX, &bufferY)
        var iter = GtkTextIter()
        var trailing: Int32 = 0
        guard gtk_text_view_get_iter_at_position(ptr(), &iter, &trailing, bufferX, bufferY) != 0 else { return nil }
        var location = GdkRectangle()
        gtk_text_view_get_iter_location(ptr(), &iter, &location)
        guard bufferX >= location.x, bufferX <= location.x + max(location.width, 1),
              bufferY >= location.y, bufferY < location.y + location.height else { return nil }
        return Int(gtk_text_iter_get_offset(&iter))
    }

    // MARK: Widgets over the text

    /// Shows `child` over the text at a point in buffer coordinates; it scrolls with the text.
    public func addOverlay(_ child: Widget, x: Int, y: Int) {
        gtk_text_view_add_overlay(ptr(), child.widget, Int32(clamping: x), Int32(clamping: y))
    }

    public func moveOverlay(_ child: Widget, x: Int, y: Int) {
        gtk_text_view_move_overlay(ptr(), child.widget, Int32(clamping: x), Int32(clamping: y))
    }

    /// Takes away a widget added with `addOverlay` (nothing once the view let go of it, as a
    /// view being destroyed does).
    public func removeOverlay(_ child: Widget) {
        // Overlays sit in a child of the view (GtkTextViewChild, one per text window).
        guard let parent = gtk_widget_get_parent(child.widget), gtk_widget_get_parent(parent) == widget else { return }
        gtk_text_view_remove(ptr(), child.widget)
    }

    /// Where line `line` (counted from 0) is, in buffer coordinates: its top and its height,
    /// the space above and below it included. Lines not laid out yet have an estimated height.
    public func verticalRange(ofLine line: Int) -> (y: Int, height: Int) {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(buffer.buffer, &iter, Int32(clamping: line))
        var y: Int32 = 0, height: Int32 = 0
        gtk_text_view_get_line_yrange(ptr(), &iter, &y, &height)
        return (Int(y), Int(height))
    }

    /// The line (counted from 0) at a height in buffer coordinates.
    public func line(atBufferY y: Int) -> Int {
        var iter = GtkTextIter()
        var top: Int32 = 0
        gtk_text_view_get_line_at_y(ptr(), &iter, Int32(clamping: y), &top)
        return Int(gtk_text_iter_get_line(&iter))
    }

    /// A point in buffer coordinates in the view's own coordinates.
    public func viewPoint(fromBufferPoint x: Int, _ y: Int) -> (x: Int, y: Int) {
        var viewX: Int32 = 0, viewY: Int32 = 0
        gtk_text_view_buffer_to_window_coords(ptr(), GTK_TEXT_WINDOW_WIDGET, Int32(clamping: x), Int32(clamping: y), &viewX, &viewY)
        return (Int(viewX), Int(viewY))
    }

    /// How many device pixels one of the view's pixels has (2 on a HiDPI screen).
    public var scaleFactor: Int { Int(gtk_widget_get_scale_factor(widget)) }

    /// Items added to the view's context menu (Cut, Copy, Paste… stay).
    public func setExtraMenu(_ menu: Menu) {
        gtk_text_view_set_extra_menu(ptr(), menu.ptr())
    }

    public func setPixelsBetweenLines(above: Int, below: Int) {
        gtk_text_view_set_pixels_above_lines(ptr(), Int32(clamping: above))
        gtk_text_view_set_pixels_below_lines(ptr(), Int32(clamping: below))
    }
}
