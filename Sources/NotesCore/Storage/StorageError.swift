import Foundation

/// A failed file operation, with the errno, what was being done and to which path,
/// so the user can be told which note failed and why.
public struct StorageError: Error, Equatable, CustomStringConvertible {
    public enum Operation: String {
        case createFolder = "create the folder"
        case listFolder = "list the folder"
        case create = "create the note"
        case read = "read the note"
        case write = "save the note"
        case sync = "flush the note to disk"
        case rename = "replace the note"
        case remove = "remove the file"
        case trash = "move the note to the Trash"
        case restore = "restore the note from the Trash"
        case emptyTrash = "delete the note for good"
    }

    public let operation: Operation
    public let path: String
    /// POSIX errno (ENOSPC, EACCES, …), or 0 when `reason` says what went wrong.
    public let code: Int32
    public let reason: String?

    public init(_ operation: Operation, path: String, code: Int32 = errno, reason: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// The system's text for the errno, or the given reason.
    public var explanation: String {
        if let reason { return reason }
        return String(cString: strerror(code))
    }

    public var description: String {
        "Could not \(operation.rawValue) “\((path as NSString).lastPathComponent)”: \(explanation)"
    }

    /// The errno behind a Foundation file error.
    static func posixCode(of error: Error, fallback: Int32) -> Int32 {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        default: return fallback
        }
    }
}
