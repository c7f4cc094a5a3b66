/// The terms the index's vocabulary surely holds, by hash: indexing a note then asks SQLite
/// only about the words it has not seen lately instead of once per word. Fixed size (64 K
/// hashes, 512 KB), direct-mapped: a clash only forgets a term, which costs one more lookup.
/// It must be emptied whenever a transaction that added terms rolls back, or a term missing
/// from the vocabulary would hide the notes that contain it from search.
struct KnownTerms {
    private static let slotCount = 1 << 16
    private var slots = [UInt64](repeating: 0, count: slotCount)

    func contains(_ hash: UInt64) -> Bool {
        slots[Int(hash % UInt64(Self.slotCount))] == hash
    }

    mutating func insert(_ hash: UInt64) {
        slots[Int(hash % UInt64(Self.slotCount))] = hash
    }

    mutating func forgetAll() {
        for slot in slots.indices { slots[slot] = 0 }
    }
}
