import CGtk

/// Shows files in the desktop's file manager.
public enum FileBrowser {
    /// The user's Documents folder (XDG user dirs) when it exists, else nil.
    public static var documentsFolder: String? {
        guard let path = g_get_user_special_dir(G_USER_DIRECTORY_DOCUMENTS) else { return nil }
        let folder = String(cString: path)
        return g_file_test(folder, G_FILE_TEST_IS_DIR) != 0 ? folder : nil
    }

    /// Opens the folder whose path is `folder` (its bytes: a name need not be UTF-8) in the
    /// file manager (the default handler of file:// folders).
    public static func showFolder(_ folder: [UInt8], parent: Window?) {
        let file = (folder + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { g_file_new_for_path($0.baseAddress!) } }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let uri = g_file_get_uri(file) else { return }
        defer { g_free(uri) }
        notula_show_uri(parent?.window, uri)
    }
}
