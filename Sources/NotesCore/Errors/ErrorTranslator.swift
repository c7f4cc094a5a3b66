import Foundation

/// Turns raw errors (errno, Foundation and GIO file errors, document errors) into words a
/// person can act on: what failed (naming the note and the action) and why, with what to do.
public enum ErrorTranslator {
    /// What kind of trouble it is; the app picks recovery options by it.
    public enum Kind: Equatable {
        case diskFull, permissionDenied, readOnlyDisk, notFound, libraryMissing, ioError, nameTooLong,
             tooManyOpenFiles, alreadyExists, notText, conflict, changedAgain, fileMissing, timedOut, trashUnsupported, unknown
    }

    public struct Explanation: Equatable {
        public let failureReason: String
        public let recoverySuggestion: String
        public let kind: Kind
    }

    public static func explain(_ error: Error) -> Explanation {
        if let operation = error as? OperationError {
            return explain(operation.underlying, action: operation.action, note: operation.note)
        }
        return explain(error, action: nil, note: nil)
    }

    public static func explain(_ error: Error, action: OperationError.Action?, note: String?) -> Explanation {
        let kind = self.kind(of: error, action: action)
        return Explanation(failureReason: failureReason(action, note: note),
                           recoverySuggestion: suggestion(kind, error: error, note: note), kind: kind)
    }

    /// "“Groceries” could not be saved." — what failed, from the action and the note.
    public static func failureReason(_ action: OperationError.Action?, note: String?) -> String {
        let quoted = note.map { "“\($0)”" }
        let name = quoted ?? "The note"
        let object = quoted ?? "the note"
        switch action {
        case .create: return "A new note could not be created"
        case .open: return "\(name) could not be opened"
        case .save, .autosave: return "\(name) could not be saved"
        case .delete: return "\(name) could not be moved to the Trash"
        case .reload: return "\(name) could not be reloaded"
        case .revert: return "\(name) could not be reverted to the saved version"
        case .listLibrary: return "Your notes could not be listed"
        case .saveCopy: return "A copy of \(object) could not be saved"
        case .resolveConflict: return "The conflict in \(object) could not be resolved"
        case .pin: return "The pins in your notes folder could not be saved"
        case .restore: return "\(name) could not be restored from the Trash"
        case .emptyTrash: return "The Trash could not be emptied"
        case .clearHistory: return "The history of your notes could not be cleared"
        case .createNotebook: return "The notebook \(quoted ?? "") could not be created"
        case .renameNotebook: return "The notebook \(quoted ?? "") could not be renamed"
        case .deleteNotebook: return "The notebook \(quoted ?? "") could not be deleted"
        case .moveNote: return "\(name) could not be moved to the notebook"
        case .quit: return "Your latest changes to \(object) could not be saved"
        case .restoreDraft: return "The unsaved text of \(object) could not be restored"
        case nil: return "\(name) could not be changed"
        }
    }

    static func kind(of error: Error, action: OperationError.Action?) -> Kind {
        if let document = error as? DocumentError {
            switch document {
            case .inConflict: return .conflict
            case .fileMissing: return .fileMissing
            case .saveTimedOut: return .timedOut
            case .readOnly: return .notText
            case .changedWhileResolving: return .changedAgain
            }
        }
        guard let code = posixCode(of: error) else { return .unknown }
        switch code {
        case ENOSPC, EDQUOT: return .diskFull
        case EACCES, EPERM: return .permissionDenied
        case EROFS: return .readOnlyDisk
        case ENOENT, ENOTDIR: return action == .listLibrary ? .libraryMissing : .notFound
        case EIO: return .ioError
        case ENAMETOOLONG: return .nameTooLong
        case EMFILE, ENFILE: return .tooManyOpenFiles
        case EEXIST: return .alreadyExists
        case EOPNOTSUPP: return action == .delete ? .trashUnsupported : .unknown
        default: return .unknown
        }
    }

    /// The errno behind an error, whatever layer it came from.
    public static func posixCode(of error: Error) -> Int32? {
        if let storage = error as? StorageError { return storage.code == 0 ? nil : storage.code }
        if let convertible = error as? POSIXCodeConvertible { return convertible.posixCode }
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        if nsError.domain == NSCocoaErrorDomain { return StorageError.posixCode(of: error, fallback: 0).nonZero }
        return nil
    }

    static func suggestion(_ kind: Kind, error: Error, note: String?) -> String {
        let path = (error as? StorageError)?.path
        let folder = path.map { ($0 as NSString).deletingLastPathComponent }
        switch kind {
        case .diskFull:
            return "The disk is full. Free some space (empty the Trash, remove large files), then try again. Your text stays in this window meanwhile."
        case .permissionDenied:
            return "You do not have permission to change \(folder.map { "the folder “\($0)”" } ?? "this file"). Save a copy elsewhere, or change the folder's permissions and try again."
        case .readOnlyDisk:
            return "The disk that holds your notes is read-only (it may have been mounted read-only, or has an error). Save a copy elsewhere, or try again once it can be written."
        case .notFound:
            return "The file or its folder no longer exists\(path.map { " (\($0))" } ?? ""). It may have been moved, deleted, or its disk disconnected."
        case .libraryMissing:
            return "The notes folder \(path.map { "“\($0)”" } ?? "") is missing. If it is on a disk that is not connected, connect it and try again."
        case .ioError:
            return "The disk reported a read or write error; it may be failing or disconnected. Save a copy elsewhere now, then check the disk."
        case .nameTooLong:
            return "The file name is too long for this disk. Save a copy with a shorter name."
        case .tooManyOpenFiles:
            return "Too many files are open on this computer. Close some programs, then try again."
        case .alreadyExists:
            return "A file with that name already exists. Try again to pick another name."
        case .notText:
            return "This file is not UTF-8 text, so Notula shows it read-only and never changes it."
        case .conflict:
            return "Another program changed this note while you were editing it. Both versions are kept: Show Conflicts to choose."
        case .changedAgain:
            return "One of the versions changed again (another device is still syncing) while you were deciding. Nothing was changed or removed: look at the versions again, then choose."
        case .fileMissing:
            return "Its file was deleted or moved by another program. Your text is still in the window; save it again to keep it."
        case .timedOut:
            return "The disk did not answer in time. Your text is kept in a recovery draft and will be offered back when Notula starts."
        case .trashUnsupported:
            return "The disk that holds your notes has no Trash. The note was not deleted."
        case .unknown:
            return "Something unexpected went wrong: \(describe(error)). Your text stays in this window."
        }
    }

    /// The system's own words for an error, as a last resort.
    static func describe(_ error: Error) -> String {
        if let storage = error as? StorageError { return storage.explanation }
        return String(describing: error)
    }
}

private extension Int32 {
    var nonZero: Int32? { self == 0 ? nil : self }
}
