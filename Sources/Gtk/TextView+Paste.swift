import CGtk

extension TextView {
    /// Lets `handler` see every paste (Ctrl+V, Shift+Insert, the context menu's Paste) before
    /// the view pastes text; when it returns true the view does not paste.
    public func interceptPaste(_ handler: @escaping (TextView) -> Bool) {
        connectVoid("paste-clipboard", self) { view in
            if handler(view) { g_signal_stop_emission_by_name(view.raw, "paste-clipboard") }
        }
    }

    /// Where a paste asked for now goes once the clipboard answers: the selection (or the
    /// cursor) at this moment. Keys typed meanwhile go after it, as they were typed after it.
    public func markPastePlace() -> PastePlace {
        let selection = buffer.selection
        return PastePlace(buffer: buffer, start: buffer.addMark(atOffset: selection.lowerBound),
                          end: buffer.addMark(atOffset: selection.upperBound))
    }

    /// Puts pasted `text` at `place`, over what was selected there, as one edit Ctrl+Z takes
    /// back; nothing when the view is not editable. (The caller read and checked the text:
    /// GTK's own paste converts whatever bytes the owner sends.)
    public func insertPasted(_ text: String, at place: PastePlace) {
        defer { place.release() }
        let editable = gtk_text_view_get_editable(ptr())
        guard editable != 0, let start = buffer.offset(of: place.start), let end = buffer.offset(of: place.end) else { return }
        var from = buffer.iterator(start), to = buffer.iterator(max(start, end))
        gtk_text_buffer_begin_user_action(buffer.buffer)
        if start < end { gtk_text_buffer_delete_interactive(buffer.buffer, &from, &to, editable) }
        gtk_text_buffer_insert_interactive(buffer.buffer, &from, text, Int32(clamping: text.utf8.count), editable)
        gtk_text_buffer_end_user_action(buffer.buffer)
        scrollToCursor()
    }
}

extension TextBuffer {
    /// A place in the text that moves with edits before it (an insertion waiting for a copy);
    /// text inserted right at it goes after it. Delete it with `deleteMark`.
    public func addMark(atOffset offset: Int) -> TextMark {
        var iter = iterator(offset)
        return TextMark(gtk_text_buffer_create_mark(buffer, nil, &iter, 1))
    }

    /// Where the mark is now, or nil once it was deleted.
    public func offset(of mark: TextMark) -> Int? {
        guard let pointer = mark.pointer, gtk_text_mark_get_deleted(pointer) == 0 else { return nil }
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(buffer, &iter, pointer)
        return Int(gtk_text_iter_get_offset(&iter))
    }

    public func deleteMark(_ mark: TextMark) {
        guard let pointer = mark.pointer else { return }
        mark.pointer = nil
        if gtk_text_mark_get_deleted(pointer) == 0 { gtk_text_buffer_delete_mark(buffer, pointer) }
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }
}

/// The selection (or the cursor) where a paste goes once the clipboard answers
/// (`TextView.markPastePlace`); released by `insertPasted` or `release`.
public final class PastePlace {
    fileprivate let buffer: TextBuffer
    public let start: TextMark
    fileprivate let end: TextMark

    fileprivate init(buffer: TextBuffer, start: TextMark, end: TextMark) {
        self.buffer = buffer
        self.start = start
        self.end = end
    }

    /// The paste went elsewhere (a picture) or not at all.
    public func release() {
        buffer.deleteMark(start)
        buffer.deleteMark(end)
    }
}

/// An anonymous GtkTextMark, held (with a reference) until `TextBuffer.deleteMark`.
public final class TextMark {
    fileprivate var pointer: UnsafeMutablePointer<GtkTextMark>?

    fileprivate init(_ pointer: UnsafeMutablePointer<GtkTextMark>) {
        g_object_ref(UnsafeMutableRawPointer(pointer))
        self.pointer = pointer
    }

    /// A buffer replaced by a load keeps its marks: a load does not delete them.
    isolated deinit {
        if let pointer { g_object_unref(UnsafeMutableRawPointer(pointer)) }
    }
}

extension TextView {
    /// The character offset nearest a point in the view's own coordinates (a drop), also
    /// beside the text: past a line's end it is that line's end, below the text its end.
    public func nearestOffset(atViewPoint x: Double, _ y: Double) -> Int {
        let point = bufferPoint(fromViewPoint: x, y)
        var iter = GtkTextIter()
        gtk_text_view_get_iter_at_location(ptr(), &iter, Int32(clamping: point.x), Int32(clamping: point.y))
        return Int(gtk_text_iter_get_offset(&iter))
    }
}

extension TextView {
    /// Pastes as Ctrl+V does (the "paste-clipboard" signal, so interceptors see it).
    public func paste() { notula_emit(raw, "paste-clipboard") }
}
