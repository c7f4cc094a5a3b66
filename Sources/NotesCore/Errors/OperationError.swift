import Foundation

/// What the user was doing when something failed, and to which note: the context that lets
/// an error message name the note and the action.
public struct OperationError: Error, CustomStringConvertible {
    public enum Action: String, Equatable, Sendable {
        case create, open, save, autosave, delete, reload, revert, listLibrary, saveCopy, quit, restoreDraft, resolveConflict, pin, restore, emptyTrash,
            createNotebook, renameNotebook, deleteNotebook, moveNote, clearHistory, fixNames, addAttachment, chooseLanguage, updateLinks,
            export, print, removeUnusedAttachments
    }

    public let action: Action
    /// The note's title, when a note was involved.
    public let note: String?
    public let underlying: Error

    public init(_ action: Action, note: String?, underlying: Error) {
        self.action = action
        self.note = note
        // Never nest: the innermost context is the one that happened.
        if let inner = underlying as? OperationError {
            self.underlying = inner.underlying
        } else {
            self.underlying = underlying
        }
    }

    public var description: String { "\(action.rawValue) \(note ?? "-"): \(underlying)" }
}

/// Errors from other layers (GIO in the app) that can say which errno they mean.
public protocol POSIXCodeConvertible: Error {
    /// The errno this error stands for, or nil.
    var posixCode: Int32? { get }
}
