import Foundation

/// One past version of a note in the `NoteHistory`: when, how large, and why it was kept.
public struct HistoryVersion: Equatable, Sendable {
    /// Why a version was kept.
    public enum Origin: String, Sendable, CaseIterable {
        /// The note as it was when opened (the starting point of an editing session).
        case opened
        /// While the note was edited (at most one every few minutes).
        case edited
        /// When the note was closed or another note was chosen.
        case closed
        /// The text before Revert replaced it.
        case beforeRevert
        /// The text before a change made by another device or program was loaded.
        case beforeReload
        /// The text before changes made elsewhere were merged into it.
        case beforeMerge
        /// The text before an older version (or unsaved text from a recovery draft) was restored.
        case beforeRestore
        /// The note as it went to the Trash.
        case trashed
        /// The note as it came back from the Trash.
        case restoredFromTrash
        /// Conflict resolution: the other version, not kept in the note.
        case otherVersion
        /// Conflict resolution: this computer's version, replaced by the other.
        case replacedVersion
        /// A version an earlier Notula set aside in "Discarded Versions".
        case discarded

        /// Set aside by a conflict resolution: never thinned out, only the size cap removes it.
        public var isSetAside: Bool { self == .otherVersion || self == .replacedVersion || self == .discarded }
    }

    /// The version's row.
    public let id: Int64
    /// The history it belongs to (one per note).
    public let history: Int64
    public let date: Date
    /// The text's size in bytes.
    public let size: Int
    public let origin: Origin
    /// The content key: equal keys, equal bytes.
    public let key: String
}
