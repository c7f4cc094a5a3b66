import Foundation

/// The order of the notes list: pinned notes first, then the rest, each part by `sortOrder`.
public struct NoteArrangement: Equatable {
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

    /// Pinned first, each part sorted: the pins are looked up once per note, not per comparison
    /// (100,000 notes).
    public func sorted(_ notes: [NoteSummary]) -> [NoteSummary] {
        let order = sortOrder
        guard !pinned.isEmpty else { return notes.sorted(by: order.areInIncreasingOrder) }
        var top: [NoteSummary] = [], rest: [NoteSummary] = []
        for note in notes {
            if pinned.contains(note.id) { top.append(note) } else { rest.append(note) }
        }
        return top.sorted(by: order.areInIncreasingOrder) + rest.sorted(by: order.areInIncreasingOrder)
    }
}
