import Foundation

/// Why a move of all notes cannot start or could not finish.
public enum MoveError: Error, Equatable, CustomStringConvertible {
    case nested(source: String, destination: String)
    case destinationUnavailable(path: String, code: Int32)
    case notEnoughSpace(path: String, needed: Int64, available: Int64)
    case cancelled
    case failed(StorageError)

    public var description: String {
        switch self {
        case .nested(let source, let destination):
            // TRANSLATORS: %1$s is the new notes folder, %2$s the current one (full paths).
            return tr("“%1$s” and “%2$s” are inside one another; choose a folder outside the notes folder.", destination, source)
        case .destinationUnavailable(let path, let code):
            // TRANSLATORS: %1$s is a folder's full path, %2$s the system's reason.
            return tr("“%1$s” cannot be written: %2$s.", path, String(cString: strerror(code)))
        case .notEnoughSpace(let path, let needed, let available):
            let format = ByteCountFormatter()
            // TRANSLATORS: %1$s is a folder's full path, %2$s and %3$s are sizes such as “1.2 GB”.
            return tr("“%1$s” has %2$s free; the notes need %3$s.", path, format.string(fromByteCount: available), format.string(fromByteCount: needed))
        case .cancelled:
            return tr("The move was cancelled; every note is back where it was.")
        case .failed(let error):
            return error.description
        }
    }
}
