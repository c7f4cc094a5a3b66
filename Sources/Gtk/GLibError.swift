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

    /// True for G_IO_ERROR_NOT_SUPPORTED (e.g. no Trash on this file system).
    public var isNotSupported: Bool { domain == "g-io-error-quark" && code == Int(G_IO_ERROR_NOT_SUPPORTED.rawValue) }
}
