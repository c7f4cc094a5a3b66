import Foundation

/// Another version of an open note that the user has to decide about.
public struct ConflictingVersion: Equatable, Sendable {
    public enum Origin: Equatable, Sendable {
        /// The note's own file changed on disk (another device or program) while the editor
        /// held unsaved edits that could not be merged with it.
        case changedOnDisk
        /// A sync client's conflict copy beside the note.
        case conflictCopy(ConflictCopy)
    }

    public let origin: Origin
    /// The file holding this version: the note itself, or the conflict copy.
    public let url: URL
    /// The exact bytes (written back byte for byte when this version is kept).
    public let data: Data
    public let modified: Date
    /// True when this computer wrote these bytes (a Notula save in this session).
    public let writtenHere: Bool

    /// The text to show, decoded as the note's own (CRLF and a byte-order mark as the editor
    /// shows them, so only real differences are highlighted; invalid UTF-8 with replacement
    /// characters; `data` is kept).
    public var text: String { NoteEncoding.decode(data).text }
    public var contentHash: UInt64 { ContentHash.of(data) }
}
