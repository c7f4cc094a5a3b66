import CGtk

/// A GtkSourceBuffer: a TextBuffer that draws with a GtkSourceView style scheme (text,
/// selection and search-match colours). No language is set: Notula styles Markdown itself with
/// tags, and GtkSourceView never changes the text (no implicit trailing newline).
public final class SourceBuffer: TextBuffer {
    public init() {
        GtkSourceRuntime.initialize()
        super.init(full: UnsafeMutableRawPointer(gtk_source_buffer_new(nil)!))
        gtk_source_buffer_set_implicit_trailing_newline(source, 0)
        gtk_source_buffer_set_highlight_syntax(source, 0)
        gtk_source_buffer_set_highlight_matching_brackets(source, 0)
    }

    var source: UnsafeMutablePointer<GtkSourceBuffer> { ptr() }

    /// Uses the style scheme `id` (looked up in GtkSourceView's folders and those added with
    /// `GtkSourceRuntime.addStyleFolder`); returns false when no such scheme exists.
    @discardableResult
    public func setStyleScheme(_ id: String) -> Bool {
        guard let scheme = gtk_source_style_scheme_manager_get_scheme(gtk_source_style_scheme_manager_get_default(), id) else {
            return false
        }
        gtk_source_buffer_set_style_scheme(source, scheme)
        return true
    }

    public var styleSchemeID: String? {
        guard let scheme = gtk_source_buffer_get_style_scheme(source), let id = gtk_source_style_scheme_get_id(scheme) else { return nil }
        return String(cString: id)
    }
}

/// GtkSourceView's process-wide set-up.
public enum GtkSourceRuntime {
    private static var initialized = false

    public static func initialize() {
        guard !initialized else { return }
        initialized = true
        gtk_source_init()
    }

    /// Adds a folder of style scheme XML files (searched before GtkSourceView's own).
    public static func addStyleFolder(_ path: String) {
        initialize()
        gtk_source_style_scheme_manager_prepend_search_path(gtk_source_style_scheme_manager_get_default(), path)
    }
}
