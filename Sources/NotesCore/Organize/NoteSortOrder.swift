import Foundation

/// How the notes list is ordered (pinned notes always come first, see `NoteArrangement`).
public enum NoteSortOrder: String, Codable, CaseIterable, Sendable {
    /// Last changed first.
    case modified
    /// Newest note first, by when its file was created.
    case created
    /// A to Z, as people sort (numbers by value, case and accents ignored).
    case title

    /// Whether `a` comes before `b`. Ties fall back to the other keys, then the id, so the
    /// order is total and stable.
    public func areInIncreasingOrder(_ a: NoteSummary, _ b: NoteSummary) -> Bool {
        switch self {
        case .modified:
            if a.modified != b.modified { return a.modified > b.modified }
        case .created:
            if a.created != b.created { return a.created > b.created }
        case .title:
            let order = a.title.localizedStandardCompare(b.title)
            if order != .orderedSame { return order == .orderedAscending }
            if a.modified != b.modified { return a.modified > b.modified }
        }
        // Titles that compare the same in the user's eyes ("Note", "note") still have one order:
        // the list keeps its order by binary search, which needs a total one.
        if a.title != b.title {
            let order = a.title.localizedStandardCompare(b.title)
            return order == .orderedSame ? a.title < b.title : order == .orderedAscending
        }
        return a.id < b.id
    }
}
