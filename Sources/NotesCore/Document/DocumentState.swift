/// A document's condition (after UIDocument.State). The empty set is normal: open, editable,
/// nothing wrong.
public struct DocumentState: OptionSet, Hashable, CustomStringConvertible, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Not open: no text loaded, nothing watched, nothing saved.
    public static let closed = DocumentState(rawValue: 1 << 0)
    /// The file changed on disk while there were unsaved edits: two versions exist and
    /// saving will not overwrite the one on disk until the user decides.
    public static let inConflict = DocumentState(rawValue: 1 << 1)
    /// The last save failed; the text is kept in memory (and in a recovery draft).
    public static let savingError = DocumentState(rawValue: 1 << 2)
    /// The text must not change now (revert or reload running, read-only file, a move).
    public static let editingDisabled = DocumentState(rawValue: 1 << 3)
    /// A long operation (moving the library) is running; progress can be shown.
    public static let progressAvailable = DocumentState(rawValue: 1 << 4)

    public var description: String {
        let names: [(DocumentState, String)] = [(.closed, "closed"), (.inConflict, "inConflict"), (.savingError, "savingError"),
                                                (.editingDisabled, "editingDisabled"), (.progressAvailable, "progressAvailable")]
        let present = names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "normal" : present.joined(separator: "+")
    }
}

/// What an edit did to the change count (after UIDocument.ChangeKind).
public enum DocumentChangeKind: Sendable {
    /// A new edit.
    case done
    /// An edit was undone.
    case undone
    /// An undone edit was redone.
    case redone
    /// The text now matches the file (after a save, revert or reload).
    case cleared
}
