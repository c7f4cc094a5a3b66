import Foundation

/// Why a document refused or failed an operation (beyond file-system errors, which are
/// `StorageError`s).
public enum DocumentError: Error, Equatable, CustomStringConvertible {
    /// The note changed on disk while it had unsaved edits: saving would overwrite the other version.
    case inConflict(note: String)
    /// The file was deleted or moved away by another program while the note was open.
    case fileMissing(note: String)
    /// A save did not finish in time (a hung disk or network folder) while quitting.
    case saveTimedOut(note: String)
    /// The note is read-only and is never written; `reason` says why (not UTF-8 text, no
    /// permission, too large to edit safely …; nil: editing is paused, a move or a choice
    /// in Show Conflicts is being carried out).
    case readOnly(note: String, reason: String? = nil)
    /// A version shown in Show Conflicts changed on disk before the choice was carried out.
    case changedWhileResolving(note: String)

    public var description: String {
        switch self {
        // TRANSLATORS: %s is a note's title (its first line).
        case .inConflict(let note): return tr("“%s” was changed by another program while you were editing it.", note)
        case .fileMissing(let note): return tr("The file of “%s” was deleted or moved by another program.", note)
        case .saveTimedOut(let note): return tr("Saving “%s” did not finish in time.", note)
        case .readOnly(let note, _): return tr("“%s” is read-only.", note)
        case .changedWhileResolving(let note): return tr("A version of “%s” changed again while you were deciding.", note)
        }
    }
}
