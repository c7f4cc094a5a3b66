import Foundation

/// What a reconcile found, handed to the window in few, big batches: each one costs the
/// window a sort of its list. The first batch at once (rows on screen), then at most one per
/// `interval`; every note (the index started over) and a batch that must come before a
/// refresh's changes at once.
struct ChangeBatches {
    var interval: TimeInterval = 1
    private var waiting = LibraryIndex.Changes()
    private var handedAt: Date?

    /// Adds a committed batch; returns what to hand over now, if anything. `now`: a refresh's
    /// changes follow, so what waits goes first (the window applies changes in order).
    mutating func add(_ batch: LibraryIndex.Changes, now: Bool = false) -> LibraryIndex.Changes? {
        // The window applies removals before upserts: a later batch's word about a note wins.
        if !batch.removed.isEmpty, !waiting.upserted.isEmpty {
            let removed = Set(batch.removed)
            waiting.upserted.removeAll { removed.contains($0.id) }
        }
        if !batch.upserted.isEmpty, !waiting.removed.isEmpty {
            let upserted = Set(batch.upserted.map(\.id))
            waiting.removed.removeAll { upserted.contains($0) }
        }
        waiting.upserted += batch.upserted
        waiting.removed += batch.removed
        if let every = batch.everyNote { waiting = LibraryIndex.Changes(everyNote: every) }
        guard now || waiting.everyNote != nil || handedAt.map({ Date().timeIntervalSince($0) >= interval }) ?? true else { return nil }
        return flush()
    }

    /// What waits, handed over now (nil: nothing).
    mutating func flush() -> LibraryIndex.Changes? {
        guard !waiting.isEmpty else { return nil }
        defer { waiting = LibraryIndex.Changes(); handedAt = Date() }
        return waiting
    }
}
