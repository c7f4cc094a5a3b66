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
            return "“\(destination)” and “\(source)” are inside one another; choose a folder outside the notes folder."
        case .destinationUnavailable(let path, let code):
            return "“\(path)” cannot be written: \(String(cString: strerror(code)))."
        case .notEnoughSpace(let path, let needed, let available):
            let format = ByteCountFormatter()
            return "“\(path)” has \(format.string(fromByteCount: available)) free; the notes need \(format.string(fromByteCount: needed))."
        case .cancelled:
            return "The move was cancelled; every note is back where it was."
        case .failed(let error):
            return error.description
        }
    }
}
