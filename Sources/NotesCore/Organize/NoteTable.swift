/// The notes the list knows, by id: the summaries in one array and a dictionary of their
/// places. A `[String: NoteSummary]` keeps every summary in its hash table, whose buckets
/// stay at most three quarters full and double in number: 100,000 notes took 262,144
/// summary-sized buckets (36 MB, twice what 98,000 notes took); here only the places are
/// hashed (4 bytes each beside the id) and the summaries are packed.
public struct NoteTable: Sendable {
    private var notes: [NoteSummary] = []
    private var places: [String: Int32] = [:]

    public init() {}

    /// The first summary of each id is kept (a later one of the same id is dropped).
    public init(_ summaries: [NoteSummary]) {
        notes.reserveCapacity(summaries.count)
        places.reserveCapacity(summaries.count)
        for note in summaries where places[note.id] == nil {
            places[note.id] = Int32(notes.count)
            notes.append(note)
        }
    }

    public subscript(id: String) -> NoteSummary? {
        get { places[id].map { notes[Int($0)] } }
        set {
            if let newValue {
                precondition(newValue.id == id, "a note is kept under its own id")
                if let place = places[id] {
                    notes[Int(place)] = newValue
                } else {
                    places[id] = Int32(notes.count)
                    notes.append(newValue)
                }
            } else if let place = places.removeValue(forKey: id).map(Int.init) {
                // The last summary fills the hole: no other place changes.
                let last = notes.removeLast()
                if place < notes.count {
                    notes[place] = last
                    places[last.id] = Int32(place)
                }
            }
        }
    }

    /// The note's row in the library index, without copying its summary (a search tests
    /// 100,000 of them per keystroke).
    public func indexRow(of id: String) -> Int64? {
        places[id].flatMap { notes[Int($0)].indexRow }
    }

    /// Whether the note is listed, without copying its summary.
    public func contains(_ id: String) -> Bool { places[id] != nil }

    /// Every summary, in no particular order.
    public var values: [NoteSummary] { notes }
    public var count: Int { notes.count }
    public var isEmpty: Bool { notes.isEmpty }
}
