/// The notes list's contents after one batch of the library index: the notes by id, their
/// order, and each one's index row — worked out from the contents before it, with nothing of
/// the window, so the list can have it made on another thread when the batch is large (every
/// note moved into a notebook: 100,000 removed and 100,000 added took 300 ms of the main
/// thread to merge) and only take the result on the main thread.
public struct NoteListBatch: Sendable {
    /// Every note listed after the batch.
    public let notes: NoteTable
    /// `notes`' ids in the arrangement's order.
    public let sorted: [String]
    /// The index row of each of `sorted` (-1: not indexed yet).
    public let indexRows: [Int64]
    /// The notes the batch added or changed.
    public let changed: Set<String>

    /// `upserted` and `removed` applied to `notes` (in `sorted` order by `arrangement`). A
    /// summary without an index row keeps the one the note had (it was made outside the index:
    /// search finds notes by it).
    public init(upserted: [NoteSummary], removed: [String], to notes: NoteTable, sorted: [String], arrangement: NoteArrangement) {
        var table = notes
        for id in removed { table[id] = nil }
        var kept: [NoteSummary] = []
        kept.reserveCapacity(upserted.count)
        for var note in upserted {
            if note.indexRow == nil { note.indexRow = notes.indexRow(of: note.id) }
            table[note.id] = note
            kept.append(note)
        }
        let order = arrangement.merging(kept, removing: Set(removed), into: sorted) { table[$0] }
        self.notes = table
        self.sorted = order
        indexRows = order.map { table.indexRow(of: $0) ?? -1 }
        changed = Set(kept.lazy.map(\.id))
    }
}
