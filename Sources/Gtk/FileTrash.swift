import CGtk

/// Moves files to the freedesktop Trash through GIO.
public enum FileTrash {
    public static func trash(path: String) throws {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        if g_file_trash(file, nil, &error) == 0 { throw GLibError(taking: error) }
    }
}
