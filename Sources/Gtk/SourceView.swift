import CGtk

/// A GtkSourceView over a SourceBuffer: a TextView (so undo, tags and the document model work
/// as before) that draws GtkSourceView's search matches and style scheme.
public final class SourceView: TextView {
    public init(buffer: SourceBuffer) {
        super.init(floating: gtk_source_view_new_with_buffer(buffer.source), buffer: buffer)
        // Typing stays plain: no auto-indent or smart keys that would change bytes unasked
        // (Notula's own Markdown keys continue lists).
        gtk_source_view_set_auto_indent(ptr(), 0)
        gtk_source_view_set_smart_backspace(ptr(), 0)
        gtk_source_view_set_smart_home_end(ptr(), GTK_SOURCE_SMART_HOME_END_DISABLED)
        gtk_source_view_set_tab_width(ptr(), 4)
        gtk_source_view_set_indent_on_tab(ptr(), 0)
    }
}
