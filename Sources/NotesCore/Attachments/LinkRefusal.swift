import Foundation

/// Why a link in a note is not followed into the library.
public enum LinkRefusal: Error, Equatable, Sendable {
    /// It has a scheme (file:, http:, …), is absolute, or starts with ~.
    case notRelative
    /// `..` leads out of the library, or a symbolic link's real path is outside.
    case outsideLibrary
    /// Into `.notula` (Trash, history) or another hidden folder (a sync client's).
    case privateFolder
    /// Empty, a NUL, or bad percent-encoding.
    case invalid
}
