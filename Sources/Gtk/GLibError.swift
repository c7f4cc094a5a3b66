import CGtk

/// A GError turned into a Swift error (domain name, code, message), freeing the GError.
public struct GLibError: Error, CustomStringConvertible {
    public let domain: String
    public let code: Int
    public let message: String

    init(taking error: UnsafeMutablePointer<GError>?) {
        guard let error else {
            domain = "unknown"; code = 0; message = "Unknown error"
            return
        }
        domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? "unknown"
        code = Int(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0) } ?? ""
        g_error_free(error)
    }

    public var description: String { message }

    /// The errno a GIO error stands for (no space, permission denied, read-only, …), or nil.
    /// "Not supported" (a file system without a Trash) is EOPNOTSUPP.
    public var posixCode: Int32? {
        guard domain == "g-io-error-quark" else { return nil }
        switch GIOErrorEnum(UInt32(clamping: code)) {
        case G_IO_ERROR_NO_SPACE: return ENOSPC
        case G_IO_ERROR_PERMISSION_DENIED: return EACCES
        case G_IO_ERROR_READ_ONLY: return EROFS
        case G_IO_ERROR_NOT_FOUND: return ENOENT
        case G_IO_ERROR_EXISTS: return EEXIST
        case G_IO_ERROR_FILENAME_TOO_LONG: return ENAMETOOLONG
        case G_IO_ERROR_TOO_MANY_OPEN_FILES: return EMFILE
        case G_IO_ERROR_NOT_SUPPORTED: return EOPNOTSUPP
        default: return EIO
        }
    }
}
