import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One action on many notes at once (Move to Notebook…, Add Tag… / Remove Tag…, Move to Trash
/// for a selection), done through the same safe paths as for one note, and undone as one step.
///
/// `plan` looks at the notes (what each file is now); `apply` does the action note by note:
/// a move is a rename that never replaces a note of the same name (it gets " 2"); a tag is an
/// edit of the note's text that replaces the file only if it is still the one planned — a note
/// another program changed since is left alone and reported; the Trash is `LibraryTrash`.
/// A note that cannot be done (a read-only notebook, a full disk, deleted by a sync client
/// meanwhile) is named in `failures` with why; the rest is done. The links to the notes that
/// moved are followed once for the whole batch. `undo` puts back what `apply` did, in reverse,
/// with the same care (an edited note changed again since keeps that change).
/// Blocks on disk: run it off the main thread.
public struct NoteBatch: Sendable {
    public enum Action: Equatable, Sendable {
        case move(toNotebook: String)
        case addTag(String)
        case removeTag(String)
        case trash
    }

    /// A note as the plan found it.
    public struct Planned: Equatable, Sendable {
        public let id: String
        /// Its file then (nil: not there).
        public let identity: FileIdentity?
    }

    public struct Plan: Sendable {
        public let action: Action
        public let notes: [Planned]
    }

    /// What was done to one note (what `undo` takes back).
    public enum Done: Sendable {
        case moved(from: String, to: String)
        case edited(id: String, before: Data, after: Data)
        case trashed(from: String, LibraryTrash.Item)
        case restored(LibraryTrash.Item, to: String)
    }

    public struct Failure: Equatable, Sendable {
        public let id: String
        /// Why, for the user ("changed by another program since", "Permission denied").
        public let reason: String

        public init(id: String, reason: String) {
            self.id = id
            self.reason = reason
        }
    }

    public struct Outcome: Sendable {
        public var done: [Done] = []
        public var failures: [Failure] = []
        /// Notes the action had nothing to do for (already in that notebook, tagged so already).
        public var unchanged: [String] = []
        /// Stopped by the caller before the end (what was done stays done, and can be undone).
        public var cancelled = false

        /// Every note id the index must read again: where notes were and where they are.
        public var changedIDs: [String] {
            var ids: [String] = []
            for step in done {
                switch step {
                case .moved(let from, let to): ids += [from, to]
                case .edited(let id, _, _): ids.append(id)
                case .trashed(let from, _): ids.append(from)
                case .restored(_, let to): ids.append(to)
                }
            }
            return ids
        }

        /// Where each note that moved went (old id → new id).
        public var moves: [String: String] {
            var moves: [String: String] = [:]
            for case .moved(let from, let to) in done { moves[from] = to }
            return moves
        }
    }

    public let library: URL
    let history: NoteHistory?

    public init(library: URL, history: NoteHistory? = nil) {
        self.library = library
        self.history = history
    }

    /// Looks at each note's file (no reading of texts).
    public func plan(_ action: Action, ids: [String]) -> Plan {
        Plan(action: action, notes: ids.map { Planned(id: $0, identity: FileIdentity.metadata(url(of: $0))) })
    }

    /// Does `plan`'s action to each note. `shouldGoOn` is asked after each note with how many
    /// are done: false stops there.
    public func apply(_ plan: Plan, shouldGoOn: (Int) -> Bool = { _ in true }) -> Outcome {
        var outcome = Outcome()
        for (index, note) in plan.notes.enumerated() {
            do {
                switch plan.action {
                case .move(let notebook): try move(note, to: notebook, into: &outcome)
                case .addTag(let tag): try edit(note, into: &outcome) { TagEdit.adding(tag, to: $0) }
                case .removeTag(let tag): try edit(note, into: &outcome) { TagEdit.removing(tag, from: $0) }
                case .trash: try trash(note, into: &outcome)
                }
            } catch {
                outcome.failures.append(Failure(id: note.id, reason: Self.reason(error)))
            }
            if !shouldGoOn(index + 1) {
                outcome.cancelled = index + 1 < plan.notes.count
                break
            }
        }
        settleMoves(outcome.moves)
        return outcome
    }

    /// Takes back what `outcome` did, last first. A note that cannot go back (changed again
    /// since, its old place taken or read-only now) stays as it is and is named in `failures`.
    public func undo(_ outcome: Outcome, shouldGoOn: (Int) -> Bool = { _ in true }) -> Outcome {
        var undone = Outcome()
        let notebooks = Notebooks(library: library)  // the histories follow once, at the end
        let trash = LibraryTrash(library: library, history: history)
        for (index, step) in outcome.done.reversed().enumerated() {
            do {
                switch step {
                case .moved(let from, let to):
                    let back = try notebooks.move(note: to, to: (from as NSString).deletingLastPathComponent,
                                                  named: (from as NSString).lastPathComponent, followingLinks: false, syncingFolders: false)
                    undone.done.append(.moved(from: to, to: back))
                case .edited(let id, let before, let after):
                    switch try AtomicFileWriter.edit(url(of: id), { $0 == after ? before : nil }) {
                    case .written: undone.done.append(.edited(id: id, before: after, after: before))
                    case .unchanged: undone.failures.append(Failure(id: id, reason: Self.changedSince))
                    case .missing: undone.failures.append(Failure(id: id, reason: Self.gone))
                    }
                case .trashed(_, let item):
                    undone.done.append(.restored(item, to: try trash.restore(item)))
                case .restored(_, let to):
                    undone.done.append(.trashed(from: to, try trash.trash(relativePath: to)))
                }
            } catch {
                undone.failures.append(Failure(id: Self.id(of: step), reason: Self.reason(error)))
            }
            if !shouldGoOn(index + 1) {
                undone.cancelled = index + 1 < outcome.done.count
                break
            }
        }
        settleMoves(undone.moves)
        return undone
    }

    /// Takes each Trash item back to where it was (as Restore does for one).
    public func restore(_ items: [LibraryTrash.Item], shouldGoOn: (Int) -> Bool = { _ in true }) -> Outcome {
        var outcome = Outcome()
        let trash = LibraryTrash(library: library, history: history)
        for (index, item) in items.enumerated() {
            do {
                outcome.done.append(.restored(item, to: try trash.restore(item)))
            } catch {
                outcome.failures.append(Failure(id: item.originalPath, reason: Self.reason(error)))
            }
            if !shouldGoOn(index + 1) {
                outcome.cancelled = index + 1 < items.count
                break
            }
        }
        return outcome
    }

    // MARK: One note

    private func move(_ note: Planned, to notebook: String, into outcome: inout Outcome) throws {
        guard (note.id as NSString).deletingLastPathComponent != notebook else { return outcome.unchanged.append(note.id) }
        guard note.identity != nil, FileSystem.exists(url(of: note.id).path) else {
            return outcome.failures.append(Failure(id: note.id, reason: Self.gone))
        }
        let newID = try Notebooks(library: library).move(note: note.id, to: notebook, followingLinks: false, syncingFolders: false)
        outcome.done.append(.moved(from: note.id, to: newID))
    }

    /// The note's text changed by `change` (nil: nothing to change), only if its file is the
    /// one the plan saw, and still it as it is replaced.
    private func edit(_ note: Planned, into outcome: inout Outcome, _ change: (Data) -> Data?) throws {
        let url = url(of: note.id)
        guard let planned = note.identity else { return outcome.failures.append(Failure(id: note.id, reason: Self.gone)) }
        let data: Data, identity: FileIdentity
        do {
            (data, identity) = try FileIdentity.read(url)
        } catch let error as StorageError where error.code == ENOENT {
            return outcome.failures.append(Failure(id: note.id, reason: Self.gone))
        }
        guard identity.hasSameMetadata(as: planned) else {
            return outcome.failures.append(Failure(id: note.id, reason: Self.changedSince))
        }
        guard let after = change(data) else { return outcome.unchanged.append(note.id) }
        switch try AtomicFileWriter.replace(after, at: url, expecting: identity) {
        case .written:
            history?.record(of: url, origin: .edited) { after }
            outcome.done.append(.edited(id: note.id, before: data, after: after))
        case .foundOther: outcome.failures.append(Failure(id: note.id, reason: Self.changedSince))
        case .missing: outcome.failures.append(Failure(id: note.id, reason: Self.gone))
        }
    }

    private func trash(_ note: Planned, into outcome: inout Outcome) throws {
        do {
            let item = try LibraryTrash(library: library, history: history).trash(relativePath: note.id)
            outcome.done.append(.trashed(from: note.id, item))
        } catch let error as StorageError where error.code == ENOENT {
            outcome.failures.append(Failure(id: note.id, reason: Self.gone))
        }
    }

    /// Once for the whole batch (one note at a time, 10,000 moves took 17 s): the folders the
    /// notes left and went to made durable, the histories told where the notes went, and the
    /// notes that link them written again.
    private func settleMoves(_ moves: [String: String]) {
        guard !moves.isEmpty else { return }
        var folders = Set<String>()
        for (from, to) in moves {
            folders.insert((from as NSString).deletingLastPathComponent)
            folders.insert((to as NSString).deletingLastPathComponent)
        }
        for folder in folders { AtomicFileWriter.syncFolder(url(of: folder).path) }
        history?.moved(paths: moves.map { (NoteHistory.key(url(of: $0.key)), NoteHistory.key(url(of: $0.value))) })
        let names = Array(Set(moves.keys.map { ($0 as NSString).lastPathComponent }))
        LinkRetarget.followMove(in: library, names: names, moved: { moves[$0] })
    }

    private func url(of id: String) -> URL { library.appendingPathComponent(id) }

    private static func id(of step: Done) -> String {
        switch step {
        case .moved(_, let to): return to
        case .edited(let id, _, _): return id
        case .trashed(let from, _): return from
        case .restored(_, let to): return to
        }
    }

    // TRANSLATORS: why a note was left out of an action on many notes
    static var changedSince: String { tr("another program changed it since; it was left as it is") }
    // TRANSLATORS: why a note was left out of an action on many notes
    static var gone: String { tr("it is no longer there (deleted or moved by another program)") }

    public static func reason(_ error: Error) -> String {
        if let storage = error as? StorageError { return storage.explanation }
        return "\(error)"
    }
}
