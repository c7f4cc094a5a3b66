import CGtk

/// The text of an editor, with GTK's built-in undo.
public final class TextBuffer: Object {
    var buffer: UnsafeMutablePointer<GtkTextBuffer> { ptr() }

    public init() {
        super.init(UnsafeMutableRawPointer(gtk_text_buffer_new(nil)!), .full)
        gtk_text_buffer_set_enable_undo(buffer, 1)
    }

    public var text: String {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 1) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    /// The first `count` characters (cheap for a long text: only they are copied).
    public func leadingText(_ count: Int) -> String {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_start_iter(buffer, &start)
        gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(count))
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 1) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    /// Replaces the whole text without making it undoable (loading a note is not an edit).
    /// Passed with its byte length, never as a NUL-terminated string (GTK would stop at a
    /// NUL); check `holdsExactly(_:)` after, as GTK refuses text it cannot hold.
    public func load(_ text: String) {
        gtk_text_buffer_begin_irreversible_action(buffer)
        gtk_text_buffer_set_text(buffer, text, Int32(clamping: text.utf8.count))
        gtk_text_buffer_end_irreversible_action(buffer)
        var start = GtkTextIter()
        gtk_text_buffer_get_start_iter(buffer, &start)
        gtk_text_buffer_place_cursor(buffer, &start)
    }

    /// Defines a tag that colours whole lines with `color` (a CSS colour, e.g. "rgba(…)").
    public func defineLineHighlight(_ name: String, color: String) {
        let table = gtk_text_buffer_get_tag_table(buffer)
        guard gtk_text_tag_table_lookup(table, name) == nil else { return }
        notula_text_buffer_create_line_tag(buffer, name, color)
    }

    /// Applies the tag `name` to the lines `lines` (counted from 0).
    public func applyTag(_ name: String, toLines lines: Range<Int>) {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(buffer, &start, Int32(lines.lowerBound))
        if gtk_text_buffer_get_iter_at_line(buffer, &end, Int32(lines.upperBound)) == 0 {
            gtk_text_buffer_get_end_iter(buffer, &end)
        }
        gtk_text_buffer_apply_tag_by_name(buffer, name, &start, &end)
    }

    /// Whether the tag `name` covers the start of line `line` (tests read highlighting back).
    public func lineHasTag(_ name: String, line: Int) -> Bool {
        guard let tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(buffer), name) else { return false }
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(buffer, &iter, Int32(line))
        return gtk_text_iter_has_tag(&iter, tag) != 0
    }

    /// Replaces whole lines in place, without making it undoable (a reload from disk): each
    /// edit's lines (counted from 0, in the text as it is now) get its text. Edits must not
    /// overlap; they are applied from the bottom up. Marks elsewhere — the cursor, the view's
    /// scroll position — stay where they are, so nothing jumps.
    public func replaceLines(_ edits: [(lines: Range<Int>, text: String)]) {
        gtk_text_buffer_begin_irreversible_action(buffer)
        for edit in edits.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
            var start = GtkTextIter(), end = GtkTextIter()
            if gtk_text_buffer_get_iter_at_line(buffer, &start, Int32(edit.lines.lowerBound)) == 0 {
                gtk_text_buffer_get_end_iter(buffer, &start)
            }
            if gtk_text_buffer_get_iter_at_line(buffer, &end, Int32(edit.lines.upperBound)) == 0 {
                gtk_text_buffer_get_end_iter(buffer, &end)
            }
            gtk_text_buffer_delete(buffer, &start, &end)
            gtk_text_buffer_insert(buffer, &start, edit.text, Int32(clamping: edit.text.utf8.count))
        }
        gtk_text_buffer_end_irreversible_action(buffer)
    }

    /// How many characters (unicode scalars) the buffer holds.
    public var characterCount: Int { Int(gtk_text_buffer_get_char_count(buffer)) }

    /// Whether the buffer holds exactly `text` (after a load: GTK rejects invalid text and
    /// would otherwise leave a note cut short without a word). Counts first, so a long note
    /// is copied back only when the counts agree.
    public func holdsExactly(_ text: String) -> Bool {
        characterCount == text.unicodeScalars.count && self.text == text
    }

    /// The cursor as a character offset from the start.
    public var cursorOffset: Int {
        get { Int(gtk_text_buffer_get_cursor_position_value(buffer)) }
        set {
            var iter = GtkTextIter()
            gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(newValue))
            gtk_text_buffer_place_cursor(buffer, &iter)
        }
    }

    public var canUndo: Bool { gtk_text_buffer_get_can_undo(buffer) != 0 }
    public var canRedo: Bool { gtk_text_buffer_get_can_redo(buffer) != 0 }
    public func undo() { gtk_text_buffer_undo(buffer) }
    public func redo() { gtk_text_buffer_redo(buffer) }

    /// Emitted after every change of the text (typing, paste, undo, load).
    @discardableResult
    public func onChanged(_ handler: @escaping (TextBuffer) -> Void) -> SignalConnection {
        connectVoid("changed", self, handler)
    }

    /// Emitted when the user undoes (before the change) — "undo" signal.
    @discardableResult
    public func onUndo(_ handler: @escaping (TextBuffer) -> Void) -> SignalConnection {
        connectVoid("undo", self, handler)
    }

    @discardableResult
    public func onRedo(_ handler: @escaping (TextBuffer) -> Void) -> SignalConnection {
        connectVoid("redo", self, handler)
    }
}

private func gtk_text_buffer_get_cursor_position_value(_ buffer: UnsafeMutablePointer<GtkTextBuffer>) -> Int32 {
    var iter = GtkTextIter()
    gtk_text_buffer_get_iter_at_mark(buffer, &iter, gtk_text_buffer_get_insert(buffer))
    return gtk_text_iter_get_offset(&iter)
}
