import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which files of `attachments/` the notes still use. Every note is read — those of the
/// library, in notebooks at any depth, and those in the Trash, against the path they were
/// deleted from (a note in the Trash still uses its files: it may come back) — and each link
/// (inline, reference definition, HTML `src`/`href`: `NoteLinks`) is read as
/// `LibraryLinkResolver` reads it, symbolic links and percent-encoding included. Names are
/// compared without regard to case or normalisation (a link that a case-insensitive disk
/// opens counts). As a last safety net a note whose text names a file anywhere (plain or
/// percent-encoded, any case) uses it too: a file is called unused only when no note
/// mentions it at all, so nothing a note can reach is ever removed. The texts of notes open
/// in an editor (`openTexts`, saved or not) count as theirs.
///
/// Removal needs certainty: a note or folder that cannot be read (for any reason but being
/// gone) stops `unused` and `remove` with its name (`StorageError`) — it might link anything.
/// Reads every note: call it off the main thread.
public struct AttachmentUsage: Sendable {
    public let library: URL
    /// Note id → its text in an open editor (a picture pasted a moment ago is linked before it is saved).
    let openTexts: [String: String]

    public init(library: URL, openTexts: [String: String] = [:]) {
        self.library = library.standardizedFileURL
        self.openTexts = openTexts
    }

    /// Files in attachments/ that no note (in the library or in the Trash) links. Throws when
    /// a note or folder could not be read. Off main thread.
    public func unused() throws -> [String] {
        let files = files()
        let used = try usedKeys(among: files)
        return files.filter { !used.contains(AttachmentNames.key($0)) }.sorted()
    }

    /// Removes those of `paths` that are still unused (checked again); returns what it removed.
    public func remove(_ paths: [String]) throws -> [String] {
        guard !paths.isEmpty else { return [] }
        let present = Set(files())
        // Read again now, not taken from `unused()`: a note may have linked a file since the
        // list was made. (One reading for all of them: each is a reading of every note.)
        let identities = Dictionary(uniqueKeysWithValues: paths.filter(present.contains).compactMap { path in
            FileIdentity.metadata(library.appendingPathComponent(path)).map { (path, $0) }
        })
        let used = try usedKeys(among: paths.filter(present.contains))
        var removed: [String] = []
        for path in paths where present.contains(path) {
            guard !used.contains(AttachmentNames.key(path)), let identity = identities[path] else { continue }
            // Only the file that was judged: one a sync client put in its place since stays.
            if try AtomicFileWriter.remove(library.appendingPathComponent(path), expecting: identity) == .removed {
                removed.append(path)
            }
        }
        if !removed.isEmpty { AtomicFileWriter.syncFolder(AttachmentStore(library: library).folder.path) }
        return removed
    }

    /// The regular files directly in attachments/ ("attachments/NAME"), our temporaries and
    /// hidden files left out.
    func files() -> [String] {
        let folder = AttachmentStore(library: library).folder.path
        guard FileSystem.isFolder(folder), let entries = try? FolderEntries.read(folder) else { return [] }
        return entries.compactMap { entry in
            guard !entry.isFolder, !entry.name.hasPrefix(".") else { return nil }
            var info = stat()
            guard lstat(folder + "/" + entry.name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return AttachmentStore.folderName + "/" + entry.name
        }
    }

    /// Every library-relative path under attachments/ a note links, as `AttachmentNames.key`,
    /// and those of `candidates` a note mentions by name.
    func usedKeys(among candidates: [String]) throws -> Set<String> {
        var used = Set<String>()
        let mentions = candidates.map { (AttachmentNames.key($0), NameMention(($0 as NSString).lastPathComponent)) }
        func look(at data: Data, noteID: String) {
            let text = String(decoding: data, as: UTF8.self)  // not UTF-8: still looked through
            used.formUnion(linkedAttachments(in: text, noteID: noteID).map(AttachmentNames.key))
            let unclaimed = mentions.filter { !used.contains($0.0) }
            guard !unclaimed.isEmpty else { return }
            let mentionable = MentionText(data)
            for (key, mention) in unclaimed where mention.isMentioned(in: mentionable) { used.insert(key) }
        }
        for (noteID, text) in openTexts { look(at: Data(text.utf8), noteID: noteID) }
        try forEachNote(strictly: true) { url, noteID in
            do {
                // A note that is a symbolic link is read where it leads: its links count.
                look(at: try RegularFile.read(url, followLinks: true).data, noteID: noteID)
            } catch let error as StorageError where error.code == ENOENT || error.notAFile != nil {
                return  // gone since the listing, or no note at all (a FIFO, a folder): it links nothing
            }
        }
        return used
    }

    /// The attachments `text` links from `noteID`, as they resolve on disk.
    func linkedAttachments(in text: String, noteID: String) -> Set<String> {
        let resolver = LibraryLinkResolver(library: library)
        let note = NoteLocation(library: library, noteID: noteID)
        var paths = Set<String>()
        let prefix = AttachmentStore.folderName + "/"
        for address in NoteLinks.addresses(in: text) {
            // What the text names (a file that a case-insensitive disk opens under another
            // spelling), and what the disk says it is (a symbolic link's real file).
            if case .success(let path) = LibraryLinkResolver.relativePath(of: address, fromFolder: note.folderID), path.hasPrefix(prefix) {
                paths.insert(path)
            }
            if case .success(.file(let url)) = resolver.resolve(address, from: note) {
                let path = String(url.path.dropFirst(library.path.count + 1))
                if path.hasPrefix(prefix) { paths.insert(path) }
            }
        }
        return paths
    }

    /// Calls `body` with every note file and the id it has (or had, for the Trash), in
    /// notebooks at any depth (symbolic links are not followed). `strictly`: a folder that
    /// cannot be listed (for any reason but being gone) throws; otherwise it is passed over.
    func forEachNote(strictly: Bool = false, _ body: (URL, String) throws -> Void) throws {
        func list(_ path: String) throws -> [FolderEntries.Entry] {
            do { return try FolderEntries.read(path) } catch {
                if strictly, (error as? StorageError)?.code != ENOENT { throw error }
                return []
            }
        }
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? library : library.appendingPathComponent(relative)
            for entry in try list(folder.path) {
                let id = relative.isEmpty ? entry.name : "\(relative)/\(entry.name)"
                if entry.isFolder {
                    if NoteLibrary.isNotebook(entry.name, in: relative) { try walk(id) }
                } else if NoteLibrary.isNoteFileName(entry.name) {
                    try body(folder.appendingPathComponent(entry.name), id)
                }
            }
        }
        try walk("")
        let trash = LibraryTrash(library: library)
        _ = try list(trash.files.path)  // a Trash that cannot be listed may hold notes that link anything
        for item in trash.items() {
            try Self.forEachNote(inTrashItem: item, strictly: strictly, body)
        }
    }

    /// The note files of a Trash item (a note, or a notebook deleted whole) with their ids
    /// from before it was deleted.
    static func forEachNote(inTrashItem item: LibraryTrash.Item, strictly: Bool = false, _ body: (URL, String) throws -> Void) throws {
        func walk(_ url: URL, _ id: String) throws {
            if FileSystem.isFolder(url.path) {
                let entries: [FolderEntries.Entry]
                do { entries = try FolderEntries.read(url.path) } catch {
                    if strictly, (error as? StorageError)?.code != ENOENT { throw error }
                    return
                }
                for entry in entries where !entry.name.hasPrefix(".") {
                    try walk(url.appendingPathComponent(entry.name), id + "/" + entry.name)
                }
            } else if NoteLibrary.isNoteFileName((id as NSString).lastPathComponent) {
                try body(url, id)
            }
        }
        try walk(item.url, item.originalPath)
    }
}
