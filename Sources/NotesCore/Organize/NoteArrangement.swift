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

    public func sorted(_ notes: [NoteSummary]) -> [NoteSummary] {
        notes.sorted(by: areInIncreasingOrder)
    }
}
