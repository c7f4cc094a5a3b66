import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Renames what in the library has a name that is not UTF-8 (listed with "�") to the name
/// its bytes most likely meant (`PathBytes.repaired`: "caf\xe9.md" → "café.md"), so every
/// program and device reads it: a rename in its folder, nothing rewritten. A name taken
/// already gets " 2", " 3"…; pins and the notes' history follow. Blocks on disk: call it off
/// the main thread.
public struct NameRepair: Sendable {
    public let library: URL
    let history: NoteHistory?

    public init(library: URL, history: NoteHistory? = nil) {
        self.library = library
        self.history = history
    }

    /// A rename that was made, as paths relative to the library.
    public struct Renamed: Equatable, Sendable {
        public let from: String
        public let to: String
    }

    /// The notebooks and notes among `notebooks` and `notes` (paths relative to the library)
    /// whose own name is not UTF-8.
    public static func needed(notes: [String], notebooks: [String]) -> [String] {
        // Most paths have no escape at all: only those are split (100,000 notes at each start).
        (notebooks + notes).filter { PathBytes.hasEscapes($0) && PathBytes.hasEscapes(PathName.last($0)) }
    }

    /// Renames each of `paths` (notebooks and notes; a note inside a notebook renamed here
    /// follows it), deepest first, never over anything. Returns what was renamed; stops at the
    /// first failure, with what was done before it kept.
    public func repair(_ paths: [String]) throws -> [Renamed] {
        var done: [Renamed] = []
        // Deepest first: a folder's path stays valid until its own rename.
        for path in paths.sorted(by: { $0.split(separator: "/").count > $1.split(separator: "/").count }) {
            let parent = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            let folder = parent.isEmpty ? library : library.appendingPathComponent(parent)
            let repaired = PathBytes.repaired(name)
            let fitted = FileNameLength.fit((repaired as NSString).deletingPathExtension,
                                            (repaired as NSString).pathExtension.isEmpty ? "" : "." + (repaired as NSString).pathExtension)
            let newPath = (parent.isEmpty ? "" : parent + "/") + FileSystem.freeName(fitted, in: folder.path)
            let source = library.appendingPathComponent(path), target = library.appendingPathComponent(newPath)
            guard renameWithoutReplacing(source.path, target.path) == 0 else { throw StorageError(.rename, path: source.path) }
            AtomicFileWriter.syncFolder(target.deletingLastPathComponent().path)
            history?.moved(from: source, to: target)
            done.append(Renamed(from: path, to: newPath))
        }
        followPins(done)
        return done
    }

    /// Pins of renamed notes (or of notes in renamed notebooks) name them anew.
    private func followPins(_ renames: [Renamed]) {
        let pins = PinnedNotes(library: library)
        let pinned = pins.load()
        var moved = Set<String>()
        for var pin in pinned {
            // Deepest first, as they were made: a note's own rename, then its notebook's.
            for rename in renames where pin == rename.from || pin.hasPrefix(rename.from + "/") {
                pin = rename.to + pin.dropFirst(rename.from.count)
            }
            moved.insert(pin)
        }
        if moved != pinned { _ = try? pins.change(pinning: moved.subtracting(pinned), unpinning: pinned.subtracting(moved)) }
    }
}
