import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folder that holds the notes: one UTF-8 Markdown file per note.
/// Lists, creates and removes notes; every method may block on disk, so call it off the main thread.
public final class NoteLibrary {
    public let folder: URL
    /// Extensions listed as notes. New notes are always `.md`.
    public static let noteExtensions: Set<String> = ["md", "txt", "markdown"]
    /// How much of each file the list reads for title and preview.
    static let summaryPrefixLength = 4096

    public init(folder: URL) {
        self.folder = folder
    }

    /// Creates the folder (0700) if it is missing — only when `createIfMissing` (the local
    /// library): a missing synced folder is an unplugged disk or an unmounted share, and an
    /// empty folder in its place would show "no notes" — and removes temporary files a crash left.
    public func prepare(createIfMissing: Bool = true) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw StorageError(.createFolder, path: folder.path, code: ENOTDIR)
            }
        } else if !createIfMissing {
            throw StorageError(.listFolder, path: folder.path, code: ENOENT)
        } else {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(.createFolder, path: folder.path, code: StorageError.posixCode(of: error, fallback: EACCES))
            }
        }
        AtomicFileWriter.removeLeftovers(in: folder)
    }

    /// Whether a file name in the folder is a note: a note extension, and none of the hidden,
    /// lock and temporary files that editors and sync clients leave while they work —
    /// Syncthing `.syncthing.NAME.tmp` and `~syncthing~NAME.tmp`, Nextcloud/ownCloud
    /// `.NAME.~XXXX` and `NAME.part`, Dropbox `.dropbox.cache/…`, office `~$NAME` and `.~lock.NAME#`,
    /// and our own `.NAME.notula-tmp-XXXXXX`. (Partial downloads keep a non-note extension.)
    public static func isNoteFileName(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("."), !name.hasPrefix("~"), !AtomicFileWriter.isTemporary(name) else { return false }
        let ext = (name as NSString).pathExtension.lowercased()
        return noteExtensions.contains(ext)
    }

    /// Every note in the folder, newest first.
    public func scan() throws -> [NoteSummary] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw StorageError(.listFolder, path: folder.path, code: StorageError.posixCode(of: error, fallback: ENOENT))
        }
        let candidates = names.filter(Self.isNoteFileName)
        let present = Set(candidates)
        var copies: [String: [String]] = [:]
        var notes: [String] = []
        for name in candidates {
            // A conflict copy belongs to its note; a copy whose note is gone is listed itself.
            if let copy = ConflictCopy.parse(name), present.contains(copy.originalName) {
                copies[copy.originalName, default: []].append(name)
            } else {
                notes.append(name)
            }
        }
        return notes.compactMap { name -> NoteSummary? in
            guard var note = try? summary(ofFileNamed: name) else { return nil }
            note.conflictCopies = (copies[name] ?? []).sorted()
            return note
        }.sorted(by: NoteSummary.newestFirst)
    }

    /// The conflict copies beside the note `name` now (after a change reported by the watcher).
    public func conflictCopies(of name: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { ConflictCopy.parse($0)?.originalName == name }.sorted()
    }

    /// Reads the beginning of one note for the list. Nil-free: unreadable files throw.
    public func summary(ofFileNamed name: String) throws -> NoteSummary {
        let url = folder.appendingPathComponent(name)
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw StorageError(.read, path: url.path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StorageError(.read, path: url.path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw StorageError(.read, path: url.path, code: EISDIR) }
        var buffer = [UInt8](repeating: 0, count: Self.summaryPrefixLength)
        let count = read(fd, &buffer, buffer.count)
        guard count >= 0 else { throw StorageError(.read, path: url.path) }
        let prefix = buffer[0..<count]
        let decoded = UTF8Prefix.decode(prefix, isWholeFile: count < Self.summaryPrefixLength)
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
        let text = Substring(decoded ?? "")
        return NoteSummary(id: name, url: url,
                           title: decoded == nil ? name : NoteText.title(of: text),
                           preview: decoded == nil ? "Not UTF-8 text: opens read-only" : NoteText.preview(of: text),
                           modified: modified, created: NoteFileName.creationDate(of: name), isValidText: decoded != nil)
    }

    /// Creates an empty note file (0600) with a new, stable name and returns its summary.
    public func createNote(now: Date = Date()) throws -> NoteSummary {
        for _ in 0..<16 {
            let name = NoteFileName.make(date: now)
            let url = folder.appendingPathComponent(name)
            let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw StorageError(.create, path: url.path)
            }
            let synced = fsync(fd) == 0
            close(fd)
            guard synced else {
                let code = errno
                unlink(url.path)
                throw StorageError(.create, path: url.path, code: code)
            }
            AtomicFileWriter.syncFolder(folder.path)
            return try summary(ofFileNamed: name)
        }
        throw StorageError(.create, path: folder.path, code: EEXIST)
    }

    /// How many notes a library folder holds, notebooks included (for Preferences). Nil when
    /// the folder cannot be read.
    public static func countNotes(in folder: URL) -> Int? {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles]) else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        var count = 0
        while let url = enumerator.nextObject() as? URL {
            if isNoteFileName(url.lastPathComponent) { count += 1 }
        }
        return count
    }
}
