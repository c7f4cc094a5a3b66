import Foundation

/// Copies of unsaved text kept in `$XDG_STATE_HOME/notula/drafts/` whenever a note's text
/// exists only in memory (a failed save, a conflict, a deleted file, quitting anyway), so the
/// words survive a crash or a forced quit and can be offered back at the next start.
public final class RecoveryDrafts: Sendable {
    public struct Draft: Codable, Equatable, Sendable {
        /// The note's file path when the draft was written.
        public let notePath: String
        public let text: String
        public let date: Date
        /// Why the text was not in the note's file ("conflict", "save failed", …).
        public let reason: String
        /// How the note's file holds text (its line endings, a byte-order mark); nil in drafts
        /// of an earlier Notula (read as LF).
        public var encoding: NoteEncoding?

        /// The bytes the note's file gets for this text.
        public var bytes: Data { (encoding ?? NoteEncoding()).encode(text) }
    }

    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// The shared drafts folder of this user.
    public static let standard = RecoveryDrafts(folder: XDGDirectories().appState.appendingPathComponent("drafts", isDirectory: true))

    public func save(_ text: String, for note: URL, reason: String, encoding: NoteEncoding? = nil) throws {
        try AtomicFileWriter.writeJSON(Draft(notePath: note.path, text: text, date: Date(), reason: reason, encoding: encoding), to: fileURL(for: note))
    }

    public func draft(for note: URL) -> Draft? {
        guard let data = RegularFile.contents(of: fileURL(for: note)) else { return nil }
        return decode(data)
    }

    /// A document opens on a note that still has a draft (left by an earlier one: a conflict,
    /// a failed save): the draft is kept under a name of its own, so the new document's drafts
    /// and saves never replace or remove it; the next start offers it back.
    public func setAside(for note: URL) {
        let own = fileURL(for: note)
        guard FileManager.default.fileExists(atPath: own.path) else { return }
        let kept = folder.appendingPathComponent(own.deletingPathExtension().lastPathComponent + "-" + UUID().uuidString.prefix(8) + ".json")
        rename(own.path, kept.path)
    }

    /// Removes the draft this note's document keeps (not drafts set aside for it).
    public func removeOwn(for note: URL) {
        unlink(fileURL(for: note).path)
    }

    /// Removes the note's draft (also one written under another file name, by an older
    /// version or by hand: any draft naming this note).
    public func remove(for note: URL) {
        let own = fileURL(for: note)
        if FileManager.default.fileExists(atPath: own.path) { try? FileManager.default.removeItem(at: own) }
        let path = note.standardizedFileURL.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".json") {
            let file = folder.appendingPathComponent(name)
            if let data = RegularFile.contents(of: file), let draft = decode(data),
               URL(fileURLWithPath: draft.notePath).standardizedFileURL.path == path {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// Every draft, oldest first; damaged files are skipped.
    public func all() -> [Draft] {
        entries().map(\.draft)
    }

    /// A draft and the file that holds it (one note may have several: drafts set aside).
    public struct Entry: Sendable {
        public let file: URL
        public let draft: Draft
    }

    /// Every draft with its file, oldest first; damaged files are skipped.
    public func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }
            .compactMap { name -> Entry? in
                let file = folder.appendingPathComponent(name)
                guard let data = RegularFile.contents(of: file), let draft = decode(data) else { return nil }
                return Entry(file: file, draft: draft)
            }
            .sorted { $0.draft.date < $1.draft.date }
    }

    /// Removes one draft's file (its text is safe elsewhere now).
    public func remove(_ entry: Entry) {
        guard unlink(entry.file.path) != 0, errno == ENOENT else { return }
        // Set aside meanwhile (a document opened its note at start, as session restore does,
        // while the drafts were restored): the copy under the new name goes too, or the same
        // words would be offered again in a dialog.
        let own = entry.file.deletingPathExtension().lastPathComponent.split(separator: "-").first.map(String.init) ?? ""
        for other in entries() where other.draft == entry.draft && other.file.lastPathComponent.hasPrefix(own + "-") {
            unlink(other.file.path)
        }
    }

    /// A draft that became a note of its own.
    public struct Restored: Equatable, Sendable {
        /// The title its text gives it (its first line).
        public let title: String
        /// The new note's file.
        public let note: URL
    }

    /// Drafts whose note file is gone (deleted, or moved away, while its words were only in
    /// the draft) have nowhere to go back to: each text becomes a new note in `library` —
    /// in the note's notebook if that is still there, else at the top — and its draft goes.
    /// The same text in several drafts makes one note. A draft whose note cannot be looked at
    /// (no permission) or whose text could not be written (the library folder is missing:
    /// its disk may be disconnected) stays, for the next start. Blocks on disk: call it off
    /// the main thread.
    public func restoreOrphans(into library: NoteLibrary) -> [Restored] {
        var restored: [Restored] = []
        var written: Set<String> = []
        var texts: Set<String>?  // what the library's notes and its Trash hold, read only if a draft is an orphan
        for entry in entries() {
            var info = stat()
            guard lstat(entry.draft.notePath, &info) != 0, errno == ENOENT || errno == ENOTDIR else { continue }
            // A note Notula moved itself (to a notebook, the Trash, a synced folder) still holds
            // this text under another path: the draft is stale, not an orphan.
            if texts == nil { texts = Self.texts(in: library.folder, sizedLike: entries().map(\.draft.text)) }
            if written.contains(entry.draft.text) || texts?.contains(entry.draft.text) == true {
                remove(entry)
                continue
            }
            let notebook = Self.notebook(of: entry.draft.notePath, in: library.folder)
            guard let note = try? library.createNote(in: notebook, contents: entry.draft.bytes).url else { continue }  // the draft stays
            remove(entry)
            written.insert(entry.draft.text)
            restored.append(Restored(title: NoteText.title(of: entry.draft.text), note: note))
        }
        return restored
    }

    /// The kept text of the note at `note`, whose file another program deleted while it was
    /// open, written back (Save Again): at its place when that is still free and its folder
    /// there, else as a new note; then its draft goes. Returns where it was written, or nil
    /// (no draft, or it could not be written: the draft stays). Blocks on disk.
    public func writeBack(of note: URL, into library: NoteLibrary) -> URL? {
        guard let draft = draft(for: note) else { return nil }
        var target = note
        do {
            // Its place, unless another program put a file there meanwhile (never replaced).
            try AtomicFileWriter.create(draft.bytes, at: note)
        } catch {
            guard let new = try? library.createNote(in: Self.notebook(of: note.path, in: library.folder), contents: draft.bytes).url else { return nil }
            target = new
        }
        remove(for: note)
        return target
    }

    /// The texts of the notes in `library` (notebooks and its Trash) whose files are about the
    /// size of one of `candidates` (as LF or CRLF, with or without a byte-order mark): only those
    /// are read.
    static func texts(in library: URL, sizedLike candidates: [String]) -> Set<String> {
        let sizes = candidates.map { $0.utf8.count }
        guard let smallest = sizes.min(), let largest = sizes.max() else { return [] }
        var texts = Set<String>()
        func walk(_ path: String, depth: Int, isLibrary: Bool = false) {
            guard depth < 10, let entries = try? FolderEntries.read(path) else { return }
            for entry in entries {
                let child = path + "/" + entry.name
                if entry.isFolder {
                    if NoteLibrary.isNotebook(entry.name, in: isLibrary && depth == 0 ? "" : path) { walk(child, depth: depth + 1, isLibrary: isLibrary) }
                    continue
                }
                var info = stat()
                guard NoteLibrary.isNoteFileName(entry.name), lstat(child, &info) == 0,
                      Int(info.st_size) >= smallest, Int(info.st_size) <= 2 * largest + 3,
                      let data = RegularFile.contents(of: URL(fileURLWithPath: child), followLinks: false) else { continue }
                texts.insert(NoteEncoding.decode(data).text)
            }
        }
        walk(library.path, depth: 0, isLibrary: true)
        walk(LibraryTrash(library: library).folder.appendingPathComponent("files").path, depth: 0)
        return texts
    }

    /// The notebook (relative to `library`) that held the note at `path`, if it is still a
    /// folder there; "" (the library's top) otherwise.
    static func notebook(of path: String, in library: URL) -> String {
        let root = library.standardizedFileURL.path + "/"
        let folder = (URL(fileURLWithPath: path).standardizedFileURL.path as NSString).deletingLastPathComponent
        guard folder.hasPrefix(root) else { return "" }
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return "" }
        return String(folder.dropFirst(root.count))
    }

    func decode(_ data: Data) -> Draft? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Draft.self, from: data)
    }

    private func fileURL(for note: URL) -> URL {
        let hash = String(ContentHash.of(Data(note.standardizedFileURL.path.utf8)), radix: 16)
        return folder.appendingPathComponent("\(hash).json")
    }
}
