import Foundation

/// Turns raw errors (errno, Foundation and GIO file errors, document errors) into words a
/// person can act on: what failed (naming the note and the action) and why, with what to do.
public enum ErrorTranslator: Sendable {
    /// What kind of trouble it is; the app picks recovery options by it.
    public enum Kind: Equatable, Sendable {
        case diskFull, permissionDenied, readOnlyDisk, notFound, libraryMissing, ioError, nameTooLong,
             tooManyOpenFiles, alreadyExists, notAFile, notText, readOnly, conflict, changedAgain, fileMissing, timedOut, trashUnsupported, unknown
    }

    public struct Explanation: Equatable, Sendable {
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
                           recoverySuggestion: suggestion(kind, error: error, note: note, action: action), kind: kind)
    }

    /// "“Groceries” could not be saved." — what failed, from the action and the note.
    public static func failureReason(_ action: OperationError.Action?, note: String?) -> String {
        // Whole sentences for a named note and for none, so translators see each one complete.
        if let note {
            switch action {
            case .create: return tr("A new note could not be created")
            // TRANSLATORS: %s is a note's title (its first line).
            case .open: return tr("“%s” could not be opened", note)
            case .save, .autosave: return tr("“%s” could not be saved", note)
            case .delete: return tr("“%s” could not be moved to the Trash", note)
            case .reload: return tr("“%s” could not be reloaded", note)
            case .revert: return tr("“%s” could not be reverted to the saved version", note)
            case .listLibrary: return tr("Your notes could not be listed")
            case .saveCopy: return tr("A copy of “%s” could not be saved", note)
            case .resolveConflict: return tr("The conflict in “%s” could not be resolved", note)
            case .pin: return tr("The pins in your notes folder could not be saved")
            case .restore: return tr("“%s” could not be restored from the Trash", note)
            case .emptyTrash: return tr("The Trash could not be emptied")
            case .clearHistory: return tr("The history of your notes could not be cleared")
            // TRANSLATORS: %s is a notebook's name.
            case .createNotebook: return tr("The notebook “%s” could not be created", note)
            // TRANSLATORS: %s is a notebook's name.
            case .renameNotebook: return tr("The notebook “%s” could not be renamed", note)
            // TRANSLATORS: %s is a notebook's name.
            case .deleteNotebook: return tr("The notebook “%s” could not be deleted", note)
            case .moveNote: return tr("“%s” could not be moved to the notebook", note)
            // TRANSLATORS: %s is the name of a picture or file being added to a note.
            case .addAttachment: return tr("“%s” could not be added to the note", note)
            case .chooseLanguage: return tr("The spelling language of “%s” could not be saved", note)
            // TRANSLATORS: %s is a note's new title; the links to its old title in other notes could not be rewritten.
            case .updateLinks: return tr("The links to “%s” could not be updated", note)
            // TRANSLATORS: %s is a note's title, or a notebook's name, exported as HTML or PDF.
            case .export: return tr("“%s” could not be exported", note)
            case .print: return tr("“%s” could not be printed", note)
            case .removeUnusedAttachments: return tr("Unused attachments could not be removed")
            // TRANSLATORS: %s is a file or notebook name that is not valid text (shown with “�”).
            case .fixNames: return tr("“%s” could not be renamed", note)
            case .quit: return tr("Your latest changes to “%s” could not be saved", note)
            case .restoreDraft: return tr("The unsaved text of “%s” could not be restored", note)
            case nil: return tr("“%s” could not be changed", note)
            }
        }
        switch action {
        case .create: return tr("A new note could not be created")
        case .open: return tr("The note could not be opened")
        case .save, .autosave: return tr("The note could not be saved")
        case .delete: return tr("The note could not be moved to the Trash")
        case .reload: return tr("The note could not be reloaded")
        case .revert: return tr("The note could not be reverted to the saved version")
        case .listLibrary: return tr("Your notes could not be listed")
        case .saveCopy: return tr("A copy of the note could not be saved")
        case .resolveConflict: return tr("The conflict in the note could not be resolved")
        case .pin: return tr("The pins in your notes folder could not be saved")
        case .restore: return tr("The note could not be restored from the Trash")
        case .emptyTrash: return tr("The Trash could not be emptied")
        case .clearHistory: return tr("The history of your notes could not be cleared")
        case .createNotebook: return tr("The notebook could not be created")
        case .renameNotebook: return tr("The notebook could not be renamed")
        case .deleteNotebook: return tr("The notebook could not be deleted")
        case .moveNote: return tr("The note could not be moved to the notebook")
        case .addAttachment: return tr("The files could not be added to the note")
        case .chooseLanguage: return tr("The spelling language of the note could not be saved")
        case .updateLinks: return tr("The links to the note could not be updated")
        case .export: return tr("The note could not be exported")
        case .print: return tr("The note could not be printed")
        // TRANSLATORS: Remove Unused Attachments… stopped (a note could not be read: it might link any file).
        case .removeUnusedAttachments: return tr("Unused attachments could not be removed")
        case .fixNames: return tr("The names could not be fixed")
        case .quit: return tr("Your latest changes to the note could not be saved")
        case .restoreDraft: return tr("The unsaved text of the note could not be restored")
        case nil: return tr("The note could not be changed")
        }
    }

    static func kind(of error: Error, action: OperationError.Action?) -> Kind {
        if let document = error as? DocumentError {
            switch document {
            case .inConflict: return .conflict
            case .fileMissing: return .fileMissing
            case .saveTimedOut: return .timedOut
            case .readOnly(_, let reason): return reason == NoteEncoding.notUTF8Problem ? .notText : .readOnly
            case .changedWhileResolving: return .changedAgain
            }
        }
        if (error as? StorageError)?.notAFile != nil { return .notAFile }
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

    static func suggestion(_ kind: Kind, error: Error, note: String?, action: OperationError.Action? = nil) -> String {
        let storage = error as? StorageError
        let path = storage.map { PathBytes.display($0.path) }
        switch kind {
        case .diskFull where action == .export:
            return tr("The disk you chose is full. Free some space there, or choose another place.")
        case .readOnlyDisk where action == .export:
            return tr("The disk you chose is read-only. Choose another place.")
        case .permissionDenied where action == .export:
            return tr("You do not have permission to write in the folder you chose. Choose another place.")
        case .diskFull:
            return tr("The disk is full. Free some space (empty the Trash, remove large files), then try again. Your text stays in this window meanwhile.")
        case .permissionDenied:
            return permissionSuggestion(storage, action: action)
        case .readOnlyDisk:
            return tr("The disk that holds your notes is read-only (it may have been mounted read-only, or has an error). Save a copy elsewhere, or try again once it can be written.")
        case .notFound:
            if let path {
                // TRANSLATORS: %s is the file's full path.
                return tr("The file or its folder no longer exists (%s). It may have been moved, deleted, or its disk disconnected.", path)
            }
            return tr("The file or its folder no longer exists. It may have been moved, deleted, or its disk disconnected.")
        case .libraryMissing:
            if let path {
                // TRANSLATORS: %s is the notes folder's full path.
                return tr("The notes folder “%s” is missing. If it is on a disk that is not connected, connect it and try again.", path)
            }
            return tr("The notes folder is missing. If it is on a disk that is not connected, connect it and try again.")
        case .ioError:
            return tr("The disk reported a read or write error; it may be failing or disconnected. Save a copy elsewhere now, then check the disk.")
        case .nameTooLong:
            return tr("The file name is too long for this disk. Save a copy with a shorter name.")
        case .tooManyOpenFiles:
            return tr("Too many files are open on this computer. Close some programs, then try again.")
        case .alreadyExists:
            return tr("A file with that name already exists. Try again to pick another name.")
        case .notAFile:
            // Its own words ("It is a FIFO (named pipe), not a note file, …"): nothing to retry.
            return storage?.reason ?? describe(error)
        case .notText:
            return tr("This file is not UTF-8 text, so Notula shows it read-only and never changes it.")
        case .readOnly:
            if case DocumentError.readOnly(_, let reason?) = error { return reason }
            return tr("Editing is paused while Notula finishes a change to this note (a move of all notes, or a choice in Show Conflicts). Try again in a moment.")
        case .conflict:
            // TRANSLATORS: “Show Conflicts” is the name of a button.
            return tr("Another program changed this note while you were editing it. Both versions are kept: Show Conflicts to choose.")
        case .changedAgain:
            return tr("One of the versions changed again (another device is still syncing) while you were deciding. Nothing was changed or removed: look at the versions again, then choose.")
        case .fileMissing:
            return tr("Its file was deleted or moved by another program. Your text is still in the window; save it again to keep it.")
        case .timedOut:
            return tr("The disk did not answer in time. Your text is kept in a recovery draft and will be offered back when Notula starts.")
        case .trashUnsupported:
            return tr("The disk that holds your notes has no Trash. The note was not deleted.")
        case .unknown:
            // A file error names its file ("Could not read the note “Loop.md”: …"): which
            // note is the first thing the user needs when the cause is unusual.
            // TRANSLATORS: %s is the system's own description of the error.
            var cause = (error as? StorageError)?.description ?? describe(error)
            while cause.hasSuffix(".") { cause.removeLast() }
            return tr("Something unexpected went wrong: %s. Your text stays in this window.", cause)
        }
    }

    /// Whose permission is missing, for what: the file that could not be read, the folder
    /// that could not be opened, or the folder a change needed (saving writes a new file
    /// there and renames it over the note, so the folder decides, not the note's own mode).
    static func permissionSuggestion(_ storage: StorageError?, action: OperationError.Action?) -> String {
        guard let storage else {
            switch action {
            case .open, .reload, .revert, .listLibrary:
                return tr("You do not have permission to read this note or to open its folder. Change their permissions (or ask their owner), then try again.")
            default:
                return tr("You do not have permission to change this note's folder. Save a copy elsewhere, or change the folder's permissions and try again.")
            }
        }
        switch storage.operation {
        case .read:
            // TRANSLATORS: %s is a file's full path.
            return tr("You do not have permission to read the file “%s”. Change the file's permissions (or ask its owner), then try again.", PathBytes.display(storage.path))
        case .listFolder:
            // TRANSLATORS: %s is a folder's full path.
            return tr("You do not have permission to open the folder “%s”. Change the folder's permissions (or ask its owner), then try again.", PathBytes.display(storage.path))
        case .createFolder, .create, .write, .sync, .rename, .remove, .trash, .restore, .emptyTrash:
            let folder = PathBytes.display((storage.path as NSString).deletingLastPathComponent)
            // TRANSLATORS: %s is a folder's full path.
            return tr("You do not have permission to change the folder “%s”. Save a copy elsewhere, or change the folder's permissions and try again.", folder)
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
