import CGtk

/// Shows files in the desktop's file manager.
public enum FileBrowser {
    /// Opens `folder` in the file manager (the default handler of file:// folders).
    public static func showFolder(_ folder: String, parent: Window?) {
        let file = g_file_new_for_path(folder)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let uri = g_file_get_uri(file) else { return }
        defer { g_free(uri) }
        gtk_show_uri(parent?.window, uri, UInt32(GDK_CURRENT_TIME))
    }
}
