import Foundation

/// The order of the notes list: pinned notes first, then the rest, each part by `sortOrder`.
public struct NoteArrangement: Equatable, Sendable {
    public var sortOrder: NoteSortOrder
    /// Ids of the pinned notes.
    public var pinned: Set<String>

    public init(sortOrder: NoteSortOrder = .modified, pinned: Set<String> = []) {
        self.sortOrder = sortOrder
        self.pinned = pinned
    }

    public func areInIncreasingOrder(_ a: NoteSummary, _ b: NoteSummary) -> Bool {
        let aPinned = pinned.contains(a.id), bPinned = pinned.contains(b.id)
        if aPinned != bPinned { return aPinned }
        return sortOrder.areInIncreasingOrder(a, b)
    }

    /// The notes' ids, pinned first, each part in `sortOrder`. Positions are sorted, not the
    /// summaries (moving 100,000 structs of strings cost more than comparing them), and the
    /// pins are looked up once per note, not per comparison.
    public func sortedIDs<Notes: Collection>(_ notes: Notes) -> [String] where Notes.Element == NoteSummary {
        let all = Array(notes)
        let order = sortOrder
        return all.withUnsafeBufferPointer { buffer -> [String] in
            var top: [Int] = [], rest: [Int] = []
            for index in buffer.indices {
                if !pinned.isEmpty, pinned.contains(buffer[index].id) { top.append(index) } else { rest.append(index) }
            }
            let before = { (a: Int, b: Int) in order.areInIncreasingOrder(buffer[a], buffer[b]) }
            top.sort(by: before)
            rest.sort(by: before)
            return (top + rest).map { buffer[$0].id }
        }
    }
}
