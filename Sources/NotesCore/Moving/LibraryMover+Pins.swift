import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Pins are note paths in the library (`.notula/pinned.txt`, see `PinnedNotes`): a note that
/// arrives under another name keeps its pin, and the pins of a destination that had its own
/// pins file are kept beside the ones that come.
extension LibraryMover {
    /// The pins file, relative to the library.
    static let pinsPath = ".notula/pinned.txt"

    /// The pins the destination has after the move, by the notes' paths there; nil when the
    /// pins file can simply move (no pinned note is renamed, the destination has none).
    func pinsAfterMove(_ journal: MoveJournal) -> [String]? {
        guard let item = journal.items.first(where: { $0.source == Self.pinsPath }), !item.isSymlink else { return nil }
        let pinned = PinnedNotes(library: source).load()
        let targets = Dictionary(journal.items.map { ($0.source, $0.target) }, uniquingKeysWith: { first, _ in first })
        let moved = Set(pinned.map { targets[$0] ?? $0 })
        if item.target == Self.pinsPath && moved == pinned { return nil }
        let there = item.target == Self.pinsPath ? [] : PinnedNotes(library: destination).load()
        return moved.union(there).sorted()
    }

    /// At the end of a move (or of its finishing after a crash: the same list again): the pins
    /// are written where the destination's pins file is, then the moved pins file goes if it
    /// landed beside it ("pinned (2).txt"). When the write fails, that file stays: nothing is lost.
    func writePins(_ journal: MoveJournal, placed: [MoveJournal.Item]) {
        guard let pins = journal.pins else { return }
        do { try PinnedNotes(library: destination).save(Set(pins)) } catch { return }
        if let moved = placed.first(where: { $0.source == Self.pinsPath }), moved.target != Self.pinsPath {
            unlink(destination.appendingPathComponent(moved.target).path)
        }
    }
}
