import CGtk

/// The text of an editor, with GTK's built-in undo. Positions are character offsets (Unicode
/// scalars, as GTK counts them); ranges are half-open.
public class TextBuffer: Object {
    var buffer: UnsafeMutablePointer<GtkTextBuffer> { ptr() }

    public convenience init() {
        self.init(full: UnsafeMutableRawPointer(gtk_text_buffer_new(nil)!))
    }

    /// A buffer (or subclass) the caller holds a full reference to.
    init(full pointer: UnsafeMutableRawPointer) {
        super.init(pointer, .full)
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
        gtk_text_buffer_get_iter_at_offset(buffer, &end, Int32(clamping: count))
        guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 1) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
    }

    /// Replaces the whole text without making it undoable (loading a note is not an edit).
    /// Passed with its byte length, never as a NUL-terminated string (GTK would stop at a
    /// NUL); check `holdsExactly(_:)` after, as GTK refuses text it cannot hold.
    public func load(_ text: String) {
        exactly {
            gtk_text_buffer_begin_irreversible_action(buffer)
            gtk_text_buffer_set_text(buffer, text, Int32(clamping: text.utf8.count))
            gtk_text_buffer_end_irreversible_action(buffer)
        }
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

    /// Applies the tag `name` to each of the lines `lines` (counted from 0), as `lineTagRange`.
    public func applyTag(_ name: String, toLines lines: Range<Int>) {
        for line in lines { applyTag(name, to: lineTagRange(line)) }
    }

    /// Where a tag meant for a whole line goes: the line's characters without its line break,
    /// or the break alone on an empty line. GTK 4.8 lays out the lines of a frame carrying the
    /// style of the last character it laid out over to the next line it lays out, when that
    /// line starts without a tag toggling (lines it still holds are skipped, so that is not
    /// always the line below): a tag over a line break gave its style to some later line — a
    /// title's size to a paragraph further down. A tag ending before the break leaves nothing
    /// to carry; an empty line, which has nothing else, gets its break.
    public func lineTagRange(_ line: Int) -> Range<Int> {
        var start = GtkTextIter()
        if gtk_text_buffer_get_iter_at_line(buffer, &start, Int32(clamping: line)) == 0 { return characterCount..<characterCount }
        var end = start
        if gtk_text_iter_ends_line(&end) == 0 {
            gtk_text_iter_forward_to_line_end(&end)
        } else if gtk_text_iter_forward_line(&end) == 0 {
            gtk_text_buffer_get_end_iter(buffer, &end)
        }
        return Int(gtk_text_iter_get_offset(&start))..<Int(gtk_text_iter_get_offset(&end))
    }

    /// Whether the tag `name` covers the start of line `line` (tests read highlighting back).
    public func lineHasTag(_ name: String, line: Int) -> Bool {
        guard let tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(buffer), name) else { return false }
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(buffer, &iter, Int32(clamping: line))
        return gtk_text_iter_has_tag(&iter, tag) != 0
    }

    /// Replaces whole lines in place: each edit's lines (counted from 0, in the text as it is
    /// now) get its text. Edits must not overlap; they are applied from the bottom up. Marks
    /// elsewhere — the cursor, the view's scroll position — stay where they are, so nothing
    /// jumps. Not undoable (a reload from disk: never rewritten), or one undoable edit when `undoable`.
    public func replaceLines(_ edits: [(lines: Range<Int>, text: String)], undoable: Bool = false) {
        if !undoable { rewritesPaused += 1 }
        defer { if !undoable { rewritesPaused -= 1 } }
        if undoable { gtk_text_buffer_begin_user_action(buffer) } else { gtk_text_buffer_begin_irreversible_action(buffer) }
        for edit in edits.sorted(by: { $0.lines.lowerBound > $1.lines.lowerBound }) {
            var start = GtkTextIter(), end = GtkTextIter()
            if gtk_text_buffer_get_iter_at_line(buffer, &start, Int32(clamping: edit.lines.lowerBound)) == 0 {
                gtk_text_buffer_get_end_iter(buffer, &start)
            }
            if gtk_text_buffer_get_iter_at_line(buffer, &end, Int32(clamping: edit.lines.upperBound)) == 0 {
                gtk_text_buffer_get_end_iter(buffer, &end)
            }
            gtk_text_buffer_delete(buffer, &start, &end)
            gtk_text_buffer_insert(buffer, &start, edit.text, Int32(clamping: edit.text.utf8.count))
        }
        if undoable { gtk_text_buffer_end_user_action(buffer) } else { gtk_text_buffer_end_irreversible_action(buffer) }
    }

    // MARK: Lines and ranges

    public var lineCount: Int { Int(gtk_text_buffer_get_line_count(buffer)) }

    /// The line holding the character at `offset` (counted from 0).
    public func line(atOffset offset: Int) -> Int {
        var iter = iterator(offset)
        return Int(gtk_text_iter_get_line(&iter))
    }

    /// The offset of the first character of `line`.
    public func startOffset(ofLine line: Int) -> Int {
        var iter = GtkTextIter()
        if gtk_text_buffer_get_iter_at_line(buffer, &iter, Int32(clamping: line)) == 0 { return characterCount }
        return Int(gtk_text_iter_get_offset(&iter))
    }

    /// The text of `line` without its line end.
    public func text(ofLine line: Int) -> String {
        var start = GtkTextIter()
        if gtk_text_buffer_get_iter_at_line(buffer, &start, Int32(clamping: line)) == 0 { return "" }
        var end = start
        if gtk_text_iter_ends_line(&end) == 0 { gtk_text_iter_forward_to_line_end(&end) }
        return slice(&start, &end)
    }

    public func text(in range: Range<Int>) -> String {
        var start = iterator(range.lowerBound), end = iterator(range.upperBound)
        return slice(&start, &end)
    }

    /// The selected range, or an empty range at the cursor.
    public var selection: Range<Int> {
        get {
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_selection_bounds(buffer, &start, &end)
            return Int(gtk_text_iter_get_offset(&start))..<Int(gtk_text_iter_get_offset(&end))
        }
        set {
            var start = iterator(newValue.lowerBound), end = iterator(newValue.upperBound)
            gtk_text_buffer_select_range(buffer, &end, &start)
        }
    }

    // MARK: Edits the user can undo

    /// Groups the edits `body` makes into one undo step (and one "user action").
    public func asOneEdit(_ body: () -> Void) {
        gtk_text_buffer_begin_user_action(buffer)
        body()
        gtk_text_buffer_end_user_action(buffer)
    }

    /// Replaces `range` with `text` as an edit (undoable); marks after it move with the text.
    public func replace(_ range: Range<Int>, with text: String) {
        asOneEdit {
            var start = iterator(range.lowerBound), end = iterator(range.upperBound)
            if !range.isEmpty { gtk_text_buffer_delete(buffer, &start, &end) }
            if !text.isEmpty { gtk_text_buffer_insert(buffer, &start, text, Int32(clamping: text.utf8.count)) }
        }
    }

    // MARK: Edits rewritten before GTK makes them

    /// Lets `rewrite` see each edit before GTK makes it — an insertion (`range` empty) or a
    /// deletion (`text` empty), from typing, an input method, paste, drop, find and replace or
    /// `replace(_:with:)` — and make another in its place: it returns a range that covers the
    /// edit's and the text for it, or nil to let the edit be. What puts back text that was there
    /// is never rewritten: `load`, `replaceLines` from disk, undo and redo. The other edit joins
    /// the same user action (one undo step), and GTK's iterators end after its text, as they
    /// would after the edit's. One rewriter per buffer.
    public func rewriteEdits(_ rewrite: @escaping (TextBuffer, _ range: Range<Int>, _ text: String) -> (range: Range<Int>, text: String)?) {
        // Undo and redo do their work in the signals' default handlers.
        for signal in ["undo", "redo"] {
            connectVoid(signal, self) { $0.rewritesPaused += 1 }
            connectVoidAfter(signal, self) { $0.rewritesPaused -= 1 }
        }
        connectInsertTextBefore(self) { buffer, location, bytes in
            guard buffer.rewritesPaused == 0 else { return }
            let offset = Int(gtk_text_iter_get_offset(location))
            guard let edit = rewrite(buffer, offset..<offset, String(decoding: bytes, as: UTF8.self)) else { return }
            g_signal_stop_emission_by_name(buffer.raw, "insert-text")
            buffer.make(edit, leaving: location, and: nil)
        }
        connectDeleteRangeBefore(self) { buffer, start, end in
            guard buffer.rewritesPaused == 0 else { return }
            let range = Int(gtk_text_iter_get_offset(start))..<Int(gtk_text_iter_get_offset(end))
            guard let edit = rewrite(buffer, range, "") else { return }
            g_signal_stop_emission_by_name(buffer.raw, "delete-range")
            buffer.make(edit, leaving: start, and: end)
        }
    }

    /// Loads, reloads, undo and redo in progress, and a rewriter's own edit.
    private var rewritesPaused = 0

    private func exactly(_ body: () -> Void) {
        rewritesPaused += 1
        body()
        rewritesPaused -= 1
    }

    /// Makes a rewritten edit with GTK's iterators of the signal, leaving them after its text.
    private func make(_ edit: (range: Range<Int>, text: String), leaving iter: UnsafeMutablePointer<GtkTextIter>,
                      and other: UnsafeMutablePointer<GtkTextIter>?) {
        exactly {
            gtk_text_buffer_get_iter_at_offset(buffer, iter, Int32(clamping: edit.range.lowerBound))
            if !edit.range.isEmpty {
                var end = iterator(edit.range.upperBound)
                gtk_text_buffer_delete(buffer, iter, &end)
            }
            if !edit.text.isEmpty { gtk_text_buffer_insert(buffer, iter, edit.text, Int32(clamping: edit.text.utf8.count)) }
            other?.pointee = iter.pointee
        }
    }

    /// The character at `offset`, or nil outside the text.
    public func character(at offset: Int) -> Unicode.Scalar? {
        guard offset >= 0, offset < characterCount else { return nil }
        var iter = iterator(offset)
        return Unicode.Scalar(gtk_text_iter_get_char(&iter))
    }

    /// Text was inserted: its first character's offset and its length in characters.
    @discardableResult
    public func onInserted(_ handler: @escaping (TextBuffer, _ offset: Int, _ count: Int) -> Void) -> SignalConnection {
        connectInsertedText(self, handler)
    }

    /// The cursor moved (typing, a click, a key, or code placing it).
    @discardableResult
    public func onCursorMoved(_ handler: @escaping (TextBuffer) -> Void) -> SignalConnection {
        connectPointer("notify::cursor-position", self) { buffer, _ in handler(buffer) }
    }

    /// Text was deleted; `offset` is where it was.
    @discardableResult
    public func onDeleted(_ handler: @escaping (TextBuffer, _ offset: Int) -> Void) -> SignalConnection {
        connectDeletedRange(self, handler)
    }

    // MARK: Tags (styling that never changes the text)

    /// Defines the tag `name`, or restyles it when it exists (a style switch).
    public func defineTag(_ name: String, style: TextTagStyle) {
        let table = gtk_text_buffer_get_tag_table(buffer)
        let tag = gtk_text_tag_table_lookup(table, name) ?? gtk_text_tag_new(name).map { tag in
            gtk_text_tag_table_add(table, tag)
            g_object_unref(tag)
            return tag
        }
        if let tag { style.apply(to: UnsafeMutableRawPointer(tag)) }
    }

    public func applyTag(_ name: String, to range: Range<Int>) {
        var start = iterator(range.lowerBound), end = iterator(range.upperBound)
        gtk_text_buffer_apply_tag_by_name(buffer, name, &start, &end)
    }

    public func removeTag(_ name: String, from range: Range<Int>) {
        var start = iterator(range.lowerBound), end = iterator(range.upperBound)
        gtk_text_buffer_remove_tag_by_name(buffer, name, &start, &end)
    }

    /// Where the tag `name` is within `range`: its runs, in order.
    public func ranges(ofTag name: String, in range: Range<Int>) -> [Range<Int>] {
        let table = gtk_text_buffer_get_tag_table(buffer)
        guard let tag = gtk_text_tag_table_lookup(table, name), !range.isEmpty else { return [] }
        var runs: [Range<Int>] = []
        var iter = iterator(range.lowerBound)
        if gtk_text_iter_has_tag(&iter, tag) == 0, gtk_text_iter_forward_to_tag_toggle(&iter, tag) == 0 { return [] }
        while Int(gtk_text_iter_get_offset(&iter)) < range.upperBound {
            let start = Int(gtk_text_iter_get_offset(&iter))
            gtk_text_iter_forward_to_tag_toggle(&iter, tag)
            let end = Int(gtk_text_iter_get_offset(&iter))
            runs.append(start..<min(end, range.upperBound))
            guard end > start, gtk_text_iter_forward_to_tag_toggle(&iter, tag) != 0 else { break }
        }
        return runs
    }

    /// The names of the tags on the character at `offset` (tests read styling back with it).
    public func tagNames(at offset: Int) -> [String] {
        var iter = iterator(offset)
        guard let list = gtk_text_iter_get_tags(&iter) else { return [] }
        defer { g_slist_free(list) }
        var names: [String] = []
        var node: UnsafeMutablePointer<GSList>? = list
        while let current = node {
            if let name = notula_object_copy_string(current.pointee.data, "name") {
                names.append(String(cString: name))
                g_free(name)
            }
            node = current.pointee.next
        }
        return names
    }

    func iterator(_ offset: Int) -> GtkTextIter {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(clamping: offset))
        return iter
    }

    private func slice(_ start: inout GtkTextIter, _ end: inout GtkTextIter) -> String {
        guard let chars = gtk_text_buffer_get_slice(buffer, &start, &end, 1) else { return "" }
        defer { g_free(chars) }
        return String(cString: chars)
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
            gtk_text_buffer_get_iter_at_offset(buffer, &iter, Int32(clamping: newValue))
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
