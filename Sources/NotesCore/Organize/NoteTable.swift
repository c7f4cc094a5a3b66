/// The notes the list knows, by id: the summaries in one array, found through a hash table of
/// their places. A `[String: NoteSummary]` keeps every summary in its hash table, whose buckets
/// stay at most three quarters full and double in number: 100,000 notes took 262,144
/// summary-sized buckets (36 MB). A `[String: Int32]` of places still took 5.3 MB (262,144
/// buckets of a 16-byte key and a place). Here a slot is 8 bytes, a place and the id's hash,
/// and slots are filled up to 80 %: 100,000 notes take 131,072 slots, 1 MB (issue #46).
public struct NoteTable: Sendable {
    private var notes: [NoteSummary] = []
    /// Open addressing with linear probing; a slot of place 0 is empty (places count from 1).
    private var slots: [Slot] = []

    private struct Slot: Sendable {
        /// The summary's index in `notes` + 1; 0: empty.
        var place: UInt32
        /// The id's hash (its low bits pick the first slot tried; compared before the id).
        var hash: UInt32
        static let empty = Slot(place: 0, hash: 0)
    }

    public init() {}

    /// The first summary of each id is kept (a later one of the same id is dropped).
    public init(_ summaries: [NoteSummary]) {
        notes.reserveCapacity(summaries.count)
        slots = Array(repeating: .empty, count: Self.slotCount(for: summaries.count))
        for note in summaries {
            let hash = Self.hash(note.id)
            guard case .free(let slot) = find(note.id, hash: hash) else { continue }
            notes.append(note)
            slots[slot] = Slot(place: UInt32(notes.count), hash: hash)
        }
    }

    public subscript(id: String) -> NoteSummary? {
        get { place(of: id).map { notes[$0] } }
        set {
            let hash = Self.hash(id)
            if let newValue {
                precondition(newValue.id == id, "a note is kept under its own id")
                switch find(id, hash: hash) {
                case .found(_, let place):
                    notes[place] = newValue
                case .free:
                    if Self.slotCount(for: notes.count + 1) > slots.count { grow() }
                    guard case .free(let slot) = find(id, hash: hash) else { return }
                    notes.append(newValue)
                    slots[slot] = Slot(place: UInt32(notes.count), hash: hash)
                }
            } else if case .found(let slot, let place) = find(id, hash: hash) {
                empty(slot)
                // The last summary fills the hole: only its own slot changes.
                let last = notes.count - 1
                if place < last, case .found(let lastSlot, _) = find(notes[last].id, hash: Self.hash(notes[last].id)) {
                    slots[lastSlot].place = UInt32(place + 1)
                    notes[place] = notes[last]
                }
                notes.removeLast()
            }
        }
    }

    /// The note's row in the library index, without copying its summary (a search tests
    /// 100,000 of them per keystroke).
    public func indexRow(of id: String) -> Int64? {
        place(of: id).flatMap { notes[$0].indexRow }
    }

    /// Whether the note is listed, without copying its summary.
    public func contains(_ id: String) -> Bool { place(of: id) != nil }

    /// Every summary, in no particular order.
    public var values: [NoteSummary] { notes }
    public var count: Int { notes.count }
    public var isEmpty: Bool { notes.isEmpty }

    // MARK: The hash table

    private enum Lookup {
        case found(slot: Int, place: Int)
        /// Not there: the empty slot it would go in.
        case free(slot: Int)
    }

    private func place(of id: String) -> Int? {
        guard case .found(_, let place) = find(id, hash: Self.hash(id)) else { return nil }
        return place
    }

    private func find(_ id: String, hash: UInt32) -> Lookup {
        guard !slots.isEmpty else { return .free(slot: -1) }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let here = slots[slot]
            if here.place == 0 { return .free(slot: slot) }
            if here.hash == hash, notes[Int(here.place) - 1].id == id { return .found(slot: slot, place: Int(here.place) - 1) }
            slot = (slot + 1) & mask
        }
    }

    /// Empties `slot`, moving back the entries after it that would not be found past the gap
    /// (deletion without tombstones in linear probing).
    private mutating func empty(_ slot: Int) {
        let mask = slots.count - 1
        var gap = slot
        var next = slot
        while true {
            next = (next + 1) & mask
            let here = slots[next]
            if here.place == 0 { break }
            let home = Int(here.hash) & mask
            // It stays when its home lies cyclically after the gap, up to where it is.
            let stays = gap <= next ? (gap < home && home <= next) : (gap < home || home <= next)
            if stays { continue }
            slots[gap] = here
            gap = next
        }
        slots[gap] = .empty
    }

    private mutating func grow() {
        var grown = [Slot](repeating: .empty, count: Self.slotCount(for: notes.count + 1))
        let mask = grown.count - 1
        for here in slots where here.place != 0 {
            var slot = Int(here.hash) & mask
            while grown[slot].place != 0 { slot = (slot + 1) & mask }
            grown[slot] = here
        }
        slots = grown
    }

    /// A power of two that keeps `count` entries at most 80 % full (and one slot empty).
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots * 4 < count * 5 + 4 { slots *= 2 }
        return slots
    }

    private static func hash(_ id: String) -> UInt32 {
        UInt32(truncatingIfNeeded: id.hashValue)
    }
}
