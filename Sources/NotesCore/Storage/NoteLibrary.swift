import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folder that holds the notes: one UTF-8 Markdown file per note.
/// Lists, creates and removes notes; every method may block on disk, so call it off the main thread.
public final class NoteLibrary: Sendable {
    public let folder: URL
    /// Extensions listed as notes. New notes are always `.md`.
    public static let noteExtensions: Set<String> = ["md", "txt", "markdown"]
    /// The preview of a file that is not UTF-8 text.
    public static var notUTF8Preview: String { tr("Not UTF-8 text: opens read-only") }

    /// How much of each file the list reads for title and preview.
    static let summaryPrefixLength = 4096

    public init(folder: URL) {
        self.folder = folder
    }

    /// Creates the folder (0700) if it is missing — only when `createIfMissing` (the local
    /// library): a missing synced folder is an unplugged disk or an unmounted share, and an
    /// empty folder in its place would show "no notes" — and removes temporary files a crash left.
    /// `leftoversOlderThan`: at launch no Notula writer is alive (one instance per user), so
    /// every temporary is a leftover; later starts (another library, the folder made again)
    /// leave those of writes that may still be going on.
    public func prepare(createIfMissing: Bool = true, leftoversOlderThan age: TimeInterval = AtomicFileWriter.abandonedAfter) throws {
        if let problem = LibraryFolderCheck.problem(with: folder.path) {
            throw StorageError(.listFolder, path: folder.path, code: EINVAL, reason: problem)
        }
        var info = stat()
        if stat(folder.path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw StorageError(.listFolder, path: folder.path, code: ENOTDIR)
            }
        } else if errno != ENOENT {
            throw StorageError.lookingUp(.listFolder, path: folder.path)  // EACCES, EIO …: not "missing"
        } else if !createIfMissing {
            throw StorageError(.listFolder, path: folder.path, code: ENOENT)
        } else {
            try FileSystem.makeFolders(folder.path)
        }
        AtomicFileWriter.removeLeftovers(in: folder, olderThan: age)
    }

    /// Whether a file name in the folder is a note: a note extension, and none of the hidden,
    /// lock and temporary files that editors and sync clients leave while they work —
    /// Syncthing `.syncthing.NAME.tmp` and `~syncthing~NAME.tmp`, Nextcloud/ownCloud
    /// `.NAME.~XXXX` and `NAME.part`, Dropbox `.dropbox.cache/…`, office `~$NAME` and `.~lock.NAME#`,
    /// and our own `.notula-tmp-XXXXXX`. (Partial downloads keep a non-note extension.)
    public static func isNoteFileName(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("."), !name.hasPrefix("~"), !AtomicFileWriter.isTemporary(name) else { return false }
        // The extension after the last dot, without NSString (called for every name of a
        // 100,000-note folder at each start).
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return false }
        return noteExtensions.contains(name[name.utf8.index(after: dot)...].lowercased())
    }

    /// Every note in the library, notebooks (subfolders) included, newest first. Ids are
    /// paths relative to the library ("note.md", "Work/Q1/note.md").
    public func scan() throws -> [NoteSummary] {
        try scanWithNotebooks().notes
    }

    /// Every note and every notebook, from one walk of the library.
    public func scanWithNotebooks() throws -> (notes: [NoteSummary], notebooks: [String]) {
        let rootNames = try FolderEntries.read(folder.path).map(\.name)
        var notes: [NoteSummary] = []
        scan(notebook: "", names: rootNames, into: &notes)
        let notebooks = notebooks()
        for notebook in notebooks {
            let names = (try? FolderEntries.read(folder.appendingPathComponent(notebook).path).map(\.name)) ?? []
            scan(notebook: notebook, names: names, into: &notes)
        }
        return (notes.sorted(by: NoteSummary.newestFirst), notebooks)
    }

    /// The notes among `names` in one folder; a conflict copy belongs to its note, and a copy
    /// whose note is gone is listed itself.
    private func scan(notebook: String, names: [String], into notes: inout [NoteSummary]) {
        let (own, copies) = Self.classify(names)
        for name in own {
            let id = notebook.isEmpty ? name : "\(notebook)/\(name)"
            var note: NoteSummary
            do {
                note = try summary(ofFileNamed: id)
            } catch let error as StorageError where error.code == EACCES || error.code == EPERM || error.code == EIO {
                // Listed, greyed, with the reason: a note must not vanish from the list without a word.
                note = unreadableSummary(id, error: error)
            } catch {
                continue  // not a regular file (FIFO, socket, device, folder, symbolic link), or gone meanwhile
            }
            note.conflictCopies = (copies[name] ?? []).sorted()
            notes.append(note)
        }
    }

    /// Splits a folder's names into notes and the conflict copies of each (by the note's file
    /// name); a copy whose note is gone counts as a note itself.
    static func classify(_ names: [String]) -> (own: [String], copies: [String: [String]]) {
        let candidates = names.filter(isNoteFileName)
        let present = Set(candidates)
        var copies: [String: [String]] = [:]
        var own: [String] = []
        for name in candidates {
            if let copy = ConflictCopy.parse(name), present.contains(copy.originalName) {
                copies[copy.originalName, default: []].append(name)
            } else {
                own.append(name)
            }
        }
        return (own, copies)
    }

    /// A note that is there but cannot be read.
    func unreadableSummary(_ id: String, error: StorageError) -> NoteSummary {
        let url = folder.appendingPathComponent(id)
        var info = stat()
        let modified = lstat(url.path, &info) == 0
            ? Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9) : Date.distantPast
        let reason = error.code == EIO ? tr("The disk reported an error reading this file.")
            : error.operation == .listFolder ? tr("You do not have permission to open the folder it is in.")
            : tr("You do not have permission to read this file.")
        var note = NoteSummary(id: id, url: url, title: PathBytes.display((id as NSString).lastPathComponent), preview: reason,
                               modified: modified, created: NoteFileName.creationDate(of: id), isValidText: false)
        note.unreadableReason = reason
        return note
    }

    /// Whether a folder name in the library is a notebook: not hidden (our `.notula`, sync
    /// clients' `.stfolder`, `.stversions`, `.git` …) and not a sync client's temporary.
    public static func isNotebookName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.hasPrefix("~") && !LibraryMover.isSyncMetadata(name)
    }

    /// Whether the folder `name` inside the notebook `parent` ("" for the top) is a notebook:
    /// a notebook name, and not the library's top `attachments/` folder (which holds the
    /// notes' pictures and files; a nested `Work/attachments` is a notebook).
    public static func isNotebook(_ name: String, in parent: String) -> Bool {
        isNotebookName(name) && !(parent.isEmpty && name == AttachmentStore.folderName)
    }

    /// Every notebook, as a path relative to the library ("Work", "Work/Q1"), sorted as
    /// people sort. Symbolic links are not followed; nesting deeper than 8 is not read.
    public func notebooks() -> [String] {
        var found: [String] = []
        func walk(_ relative: String, depth: Int) {
            guard depth < 8 else { return }
            let url = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
            let entries = (try? FolderEntries.read(url.path)) ?? []
            for entry in entries where entry.isFolder && Self.isNotebook(entry.name, in: relative) {
                let name = entry.name
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                found.append(path)
                walk(path, depth: depth + 1)
            }
        }
        walk("", depth: 0)
        return found.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    /// The conflict copies beside the note `id` now (after a change reported by the watcher).
    public func conflictCopies(of id: String) -> [String] {
        let url = folder.appendingPathComponent(id)
        return ConflictCopyScan.shared.candidates(in: url.deletingLastPathComponent())
            .filter { ConflictCopy.parse($0)?.originalName == url.lastPathComponent }
    }

    /// Reads the beginning of one note for the list. Nil-free: unreadable files throw, and so
    /// does anything that is not a regular file — without being opened (`RegularFile`).
    public func summary(ofFileNamed name: String) throws -> NoteSummary {
        let (bytes, info) = try RegularFile.prefix(folder.appendingPathComponent(name), count: Self.summaryPrefixLength)
        return summary(of: name, prefix: bytes[...], info: info)
    }

    /// A note's summary from the first bytes of its file (`summaryPrefixLength` or all of it).
    func summary(of name: String, prefix bytes: ArraySlice<UInt8>, info: stat) -> NoteSummary {
        let isWholeFile = Int64(bytes.count) >= Int64(info.st_size) && bytes.count < Self.summaryPrefixLength
        let decoded = UTF8Prefix.decode(bytes, isWholeFile: isWholeFile)
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
        let text = Substring(decoded ?? "")
        var note = NoteSummary(id: name, library: folder,
                               title: decoded == nil ? PathBytes.display(name) : NoteText.title(of: text),
                               preview: decoded == nil ? Self.notUTF8Preview : NoteText.preview(of: text),
                               modified: modified, created: NoteFileName.creationDate(of: name), isValidText: decoded != nil)
        note.mightBeLarge = LargeNote.mightBeLarge(size: Int64(info.st_size), prefix: Array(bytes))
        return note
    }

    /// Creates a note file (0600) with a new, stable name in `notebook` ("" for the library's
    /// top), empty or holding `contents`, and returns its summary. The file appears with its
    /// whole text in one step (never empty first, then overwritten) and never replaces a file
    /// another program put under the same name meanwhile.
    /// `createIfMissing`: the local library is made again if it was deleted meanwhile (never a
    /// synced one: its disk may just be unplugged).
    public func createNote(in notebook: String = "", contents: Data? = nil, now: Date = Date(), createIfMissing: Bool = false) throws -> NoteSummary {
        let parent = notebook.isEmpty ? folder : folder.appendingPathComponent(notebook)
        if createIfMissing, access(folder.path, F_OK) != 0, errno == ENOENT { try prepare(createIfMissing: true) }
        for _ in 0..<16 {
            let fileName = NoteFileName.make(date: now)
            let name = notebook.isEmpty ? fileName : "\(notebook)/\(fileName)"
            let url = parent.appendingPathComponent(fileName)
            if let contents {
                do {
                    try AtomicFileWriter.create(contents, at: url)
                } catch let error as StorageError where error.code == EEXIST {
                    continue
                }
                return try summary(ofFileNamed: name)
            }
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
            AtomicFileWriter.syncFolder(parent.path)
            return try summary(ofFileNamed: name)
        }
        throw StorageError(.create, path: parent.path, code: EEXIST)
    }

    /// How many notes a library folder holds, notebooks included (for Preferences). Nil when
    /// the folder cannot be read.
    public static func countNotes(in folder: URL) -> Int? {
        guard LibraryFolderCheck.problem(with: folder.path) == nil else { return nil }  // never walk "/" or $HOME
        guard let names = try? FolderEntries.read(folder.path) else { return nil }
        var count = 0
        // Not hidden, links not followed (`FolderEntries` does not), as deep as notebooks go.
        func walk(_ path: String, _ entries: [FolderEntries.Entry], depth: Int) {
            for entry in entries where !entry.name.hasPrefix(".") {
                if entry.isFolder {
                    if depth == 0 && entry.name == AttachmentStore.folderName { continue }  // not a notebook
                    if depth < 8, let inside = try? FolderEntries.read(path + "/" + entry.name) { walk(path + "/" + entry.name, inside, depth: depth + 1) }
                } else if isNoteFileName(entry.name) {
                    count += 1
                }
            }
        }
        walk(folder.path, names, depth: 0)
        return count
    }
}
