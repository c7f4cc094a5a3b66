import Foundation

/// The text a drag of notes carries onto a notebook: one note's id as it is (as before), or,
/// for several, a first line that says so and then each id percent-encoded on a line of its
/// own (a note's name may hold a line break). Text dropped from another program is only ever
/// a list of ids to look up: the receiver acts on the ones it lists.
public enum DraggedNotes {
    static let header = "notula-notes:"

    public static func text(for ids: [String]) -> String {
        guard ids.count > 1 else { return ids.first ?? "" }
        return ([header] + ids.map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0 }).joined(separator: "\n")
    }

    /// The ids in dropped `text` (at most `limit`).
    public static func ids(in text: String, limit: Int = 1_000_000) -> [String] {
        guard text.hasPrefix(header + "\n") else { return text.isEmpty ? [] : [text] }
        return text.split(separator: "\n").dropFirst().prefix(limit).compactMap { String($0).removingPercentEncoding }
    }
}
