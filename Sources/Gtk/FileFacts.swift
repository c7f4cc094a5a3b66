import CGtk

/// What the desktop knows about a file before opening it: whether it is there, what kind of
/// file it is, and whether it could run as a program.
nonisolated public struct FileFacts: Sendable {
    public enum Kind: Sendable { case missing, regular, folder, other }
    public let kind: Kind
    /// An executable bit is set, or its content type is one that runs (programs, scripts,
    /// desktop entries, libraries, Windows programs).
    public let mightRun: Bool
    public let contentType: String?

    /// Content types whose files run when "opened" (subtypes count: shell, Python and Perl
    /// scripts are application/x-executable).
    static let runnableTypes = ["application/x-executable", "application/x-sharedlib", "application/x-desktop",
                                "application/x-shellscript", "application/x-ms-dos-executable", "application/x-msdownload",
                                "application/x-msi", "application/vnd.appimage", "application/x-java-archive",
                                "application/x-flatpak", "application/vnd.flatpak.ref"]

    /// Queries the file (symbolic links followed; GIO sniffs only regular files' content).
    /// Blocking, but brief: call it off the main thread for files that may be slow to reach.
    public nonisolated static func of(path: String) -> FileFacts {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let info = g_file_query_info(file, "standard::type,standard::content-type,unix::mode",
                                           G_FILE_QUERY_INFO_NONE, nil, nil) else {
            return FileFacts(kind: .missing, mightRun: false, contentType: nil)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        let kind: Kind
        switch g_file_info_get_file_type(info) {
        case G_FILE_TYPE_REGULAR: kind = .regular
        case G_FILE_TYPE_DIRECTORY: kind = .folder
        default: kind = .other
        }
        let mode = g_file_info_get_attribute_uint32(info, "unix::mode")
        let type = g_file_info_get_content_type(info).map { String(cString: $0) }
        let runnable = type.map { type in runnableTypes.contains { g_content_type_is_a(type, $0) != 0 } } ?? false
        return FileFacts(kind: kind, mightRun: kind == .regular && (mode & 0o111 != 0 || runnable), contentType: type)
    }
}
