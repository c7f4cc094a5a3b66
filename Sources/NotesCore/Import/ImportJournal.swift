import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which source notes imports already brought into the library, so importing the same source
/// again skips them ("1,009 were already imported") and a stop at any instant — a kill, a
/// crash, a full disk — leaves neither half a note (each is created atomically) nor a
/// duplicate. `.notula/imported` in the library (it moves and syncs with the notes) holds one
/// line per step, its fields percent-encoded and separated by tabs: `planned KEY ID` is
/// appended and flushed before the note is created as ID, `done KEY ID` after. A planned note
/// whose file is there was created before a stop; one whose file is missing is created again
/// under the same name. A source once done stays done, even when its note was deleted since.
/// The file comes from disk (a sync client may bring a damaged or hostile one): it is read up
/// to 16 MB as a regular file, and lines that do not parse, or whose note id could lead out
/// of the library ("../…", "/…", hidden names), are left out.
public final class ImportJournal {
    public enum State: Equatable, Sendable {
        /// About to be created as this note id (it may be there: the stop came after).
        case planned(String)
        /// Imported as this note id.
        case done(String)
    }

    static let maxBytes = 16 << 20
    let url: URL
    private var states: [String: State] = [:]

    public init(library: URL) {
        url = library.appendingPathComponent(".notula/imported")
        guard let bytes = try? RegularFile.prefix(url, count: Self.maxBytes).bytes else { return }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 3, let key = LibraryTrash.decode(String(decoding: fields[1], as: UTF8.self)),
                  let id = LibraryTrash.decode(String(decoding: fields[2], as: UTF8.self)), !key.isEmpty, Self.isNoteID(id) else { continue }
            switch String(decoding: fields[0], as: UTF8.self) {
            case "planned": if states[key] == nil { states[key] = .planned(id) }
            case "done": states[key] = .done(id)
            default: continue
            }
        }
    }

    /// Whether `id` can name a note of the library: relative, no "..", nothing hidden. An id
    /// from the file that is not one is left out — the import would create it.
    static func isNoteID(_ id: String) -> Bool {
        let parts = id.split(separator: "/", omittingEmptySubsequences: false)
        return !id.isEmpty && !id.hasPrefix("/") && !parts.contains { $0.isEmpty || $0 == ".." || $0.hasPrefix(".") }
    }

    /// The key of a source note: its path, as the import reads it.
    public static func key(of file: URL) -> String { file.standardizedFileURL.path }

    public func state(of key: String) -> State? { states[key] }

    /// Says (on disk, flushed) that `key` is about to become the note `id`.
    public func plan(_ key: String, as id: String) throws {
        try append("planned", key, id, flush: true)
        states[key] = .planned(id)
    }

    /// Says that `key` became the note `id`. Not flushed: a lost line leaves the planned one,
    /// which the note's file answers.
    public func done(_ key: String, as id: String) {
        try? append("done", key, id, flush: false)
        states[key] = .done(id)
    }

    /// What `place` did.
    public enum Placing: Equatable, Sendable {
        case created(String)
        /// An import before this one made the note (its id then).
        case alreadyImported(String)
    }

    /// Creates the note for the source `key` in `folder` (inside `library`) under the first
    /// free name of `name(1)`, `name(2)`…, with `data` and `modified` as its time — or, when
    /// an import already made it, nothing. Never over an existing file (`AtomicFileWriter.create`).
    /// `finish` (copying the files it links) runs before the note is called done, so a stop
    /// before it ends runs it again next time.
    public func place(_ key: String, data: Data, modified: timespec?, in folder: URL, library: URL,
                      name: (Int) -> String, finish: () -> Void = {}) throws -> Placing {
        let root = library.standardizedFileURL
        switch state(of: key) {
        case .done(let id):
            return .alreadyImported(id)
        case .planned(let id):
            let url = root.appendingPathComponent(id)
            if FileSystem.exists(url.path) {
                finish()
                done(key, as: id)
                return .alreadyImported(id)
            }
            try FileSystem.makeFolders(url.deletingLastPathComponent().path)
            if (try? AtomicFileWriter.create(data, at: url, modified: modified)) != nil {
                finish()
                done(key, as: id)
                return .created(id)
            }
        case nil:
            break
        }
        for attempt in 1...10_000 {
            let url = folder.appendingPathComponent(name(attempt))
            if FileSystem.exists(url.path) { continue }
            let id = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
            try plan(key, as: id)
            do {
                try AtomicFileWriter.create(data, at: url, modified: modified)
            } catch let error as StorageError where error.code == EEXIST {
                continue  // another program took the name between the look and now
            }
            finish()
            done(key, as: id)
            return .created(id)
        }
        throw StorageError(.create, path: folder.path, code: EEXIST)
    }

    private func append(_ step: String, _ key: String, _ id: String, flush: Bool) throws {
        try FileSystem.makeFolders(url.deletingLastPathComponent().path)
        let line = Data("\(step)\t\(LibraryTrash.encode(key))\t\(LibraryTrash.encode(id))\n".utf8)
        // One write of one short line with O_APPEND: lines of two imports at once never mix.
        let fd = PathBytes.withCString(url.path) { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard fd >= 0 else { throw StorageError(.write, path: url.path) }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw StorageError(.write, path: url.path, code: written < 0 ? errno : ENOSPC) }
        if flush, fsync(fd) != 0 { throw StorageError(.sync, path: url.path) }
    }
}
