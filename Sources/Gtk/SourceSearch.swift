import CGtk

/// Find and replace in one buffer (GtkSourceSearchContext): it counts and highlights every
/// match as the text changes, in the background for long texts.
public final class SourceSearch: Object {
    private let buffer: SourceBuffer
    private let settings: UnsafeMutablePointer<GtkSourceSearchSettings>

    public init(buffer: SourceBuffer) {
        self.buffer = buffer
        settings = gtk_source_search_settings_new()!
        let context = gtk_source_search_context_new(buffer.source, settings)!
        g_object_unref(UnsafeMutableRawPointer(settings))  // the context holds it
        super.init(UnsafeMutableRawPointer(context), .full)
        gtk_source_search_settings_set_wrap_around(settings, 1)
        isHighlighting = false
    }

    private var context: OpaquePointer { opaque }

    /// The text searched for, literally (no regular expression); empty finds nothing.
    public var text: String {
        get { gtk_source_search_settings_get_search_text(settings).map { String(cString: $0) } ?? "" }
        set { gtk_source_search_settings_set_search_text(settings, newValue.isEmpty ? nil : newValue) }
    }

    public var isCaseSensitive: Bool {
        get { gtk_source_search_settings_get_case_sensitive(settings) != 0 }
        set { gtk_source_search_settings_set_case_sensitive(settings, newValue ? 1 : 0) }
    }

    /// Whether the matches are drawn highlighted.
    public var isHighlighting: Bool {
        get { gtk_source_search_context_get_highlight(context) != 0 }
        set { gtk_source_search_context_set_highlight(context, newValue ? 1 : 0) }
    }

    /// How many matches the text holds, or nil while they are still being counted.
    public var matchCount: Int? {
        let count = gtk_source_search_context_get_occurrences_count(context)
        return count < 0 ? nil : Int(count)
    }

    /// Which match (from 1) `range` is, 0 when it is not a match, nil while still counting.
    public func matchNumber(of range: Range<Int>) -> Int? {
        var start = buffer.iterator(range.lowerBound), end = buffer.iterator(range.upperBound)
        let position = gtk_source_search_context_get_occurrence_position(context, &start, &end)
        return position < 0 ? nil : Int(position)
    }

    /// The first match after `offset` (or before it, backwards), wrapping around the end.
    public func match(after offset: Int, backwards: Bool = false) -> Range<Int>? {
        var from = buffer.iterator(offset)
        var start = GtkTextIter(), end = GtkTextIter()
        var wrapped: gboolean = 0
        let found = backwards
            ? gtk_source_search_context_backward(context, &from, &start, &end, &wrapped)
            : gtk_source_search_context_forward(context, &from, &start, &end, &wrapped)
        guard found != 0 else { return nil }
        return Int(gtk_text_iter_get_offset(&start))..<Int(gtk_text_iter_get_offset(&end))
    }

    /// Replaces the match at `range` with `replacement` (one undo step); false when `range`
    /// is no longer a match.
    @discardableResult
    public func replace(_ range: Range<Int>, with replacement: String) -> Bool {
        var start = buffer.iterator(range.lowerBound), end = buffer.iterator(range.upperBound)
        return gtk_source_search_context_replace(context, &start, &end, replacement, Int32(clamping: replacement.utf8.count), nil) != 0
    }

    /// Replaces every match (one undo step); returns how many.
    @discardableResult
    public func replaceAll(with replacement: String) -> Int {
        Int(gtk_source_search_context_replace_all(context, replacement, Int32(clamping: replacement.utf8.count), nil))
    }

    /// The count of matches changed (or became known).
    @discardableResult
    public func onMatchCountChanged(_ handler: @escaping (SourceSearch) -> Void) -> SignalConnection {
        connectPointer("notify::occurrences-count", self) { search, _ in handler(search) }
    }
}
