import Foundation

/// A note, file or notebook that arrives under another name, and why: the plan lists each,
/// and the user is told of each before and after the move.
public struct MoveRename: Equatable, Sendable {
    public enum Reason: Equatable, Sendable {
        /// The destination already has something of that name (both are kept).
        case nameTaken
        /// Another entry differs only in case, and the destination does not tell case apart.
        case caseOnly
        /// The name has characters the destination refuses, or ends in a dot or a space.
        case notAllowed
        /// The name is longer than the destination allows.
        case tooLong
    }

    /// Paths relative to the source and the destination folder.
    public let source: String
    public let target: String
    public let isFolder: Bool
    public let reason: Reason

    public init(source: String, target: String, isFolder: Bool, reason: Reason) {
        self.source = source
        self.target = target
        self.isFolder = isFolder
        self.reason = reason
    }

    /// The renames listed for the user: the first `limit`, then how many more.
    public static func list(_ renames: [MoveRename], limit: Int = 8) -> String {
        list(renames.map { (PathBytes.displayName($0.source), PathBytes.displayName($0.target)) }, limit: limit)
    }

    /// "old → new" pairs listed for the user: the first `limit`, then how many more.
    public static func list(_ pairs: [(from: String, to: String)], limit: Int = 8) -> String {
        var text = pairs.prefix(limit).map { "\(PathBytes.display($0.from)) → \(PathBytes.display($0.to))" }.joined(separator: ", ")
        if pairs.count > limit {
            // TRANSLATORS: after a list of renamed notes, such as “a:b.md → a_b.md, …”.
            text += " " + trn("and %d more", "and %d more", pairs.count - limit)
        }
        return text
    }
}
