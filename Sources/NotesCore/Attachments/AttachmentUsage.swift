import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which files of `attachments/` the notes still use. Every note is read — those of the
/// library (as `NoteLibrary` lists them) and those in the Trash, against the path they were
/// deleted from (a note in the Trash still uses its files: it may come back) — and each link
/// (inline, reference definition, HTML `src`/`href`: `NoteLinks`) is read as
/// `LibraryLinkResolver` reads it, symbolic links and percent-encoding included. Names are
/// compared without regard to case or normalisation (a link that a case-insensitive disk
/// opens counts). As a last safety net a note whose text names a file anywhere (plain or
/// percent-encoded, any case) uses it too: a file is called unused only when no note
/// mentions it at all, so nothing a note can reach is ever removed.
/// Reads every note: call it off the main thread.
public struct AttachmentUsage: Sendable {
    public let library: URL

    public init(library: URL) {
        self.library = library.standardizedFileURL
    }

    /// Files in attachments/ that no note (in the library or in the Trash) links. Off main thread.
    public func unused() -> [String] {
        let files = files()
        let used = usedKeys(among: files)
        return files.filter { !used.contains(AttachmentNames.key($0)) }.sorted()
    }

    /// Removes those of `paths` that are still unused (checked again); returns what it removed.
    public func remove(_ paths: [String]) throws -> [String] {
        guard !paths.isEmpty else { return [] }
        let present = Set(files())
        // Read again now, not taken from `unused()`: a note may have linked a file since the
        // list was made. (One reading for all of them: each is a reading of every note.)
        let used = usedKeys(among: paths.filter(present.contains))
        var removed: [String] = []
        for path in paths where present.contains(path) {
            guard !used.contains(AttachmentNames.key(path)) else { continue }
            let url = library.appendingPathComponent(path)
            guard unlink(url.path) == 0 else {
                if errno == ENOENT { continue }
                throw StorageError(.remove, path: url.path)
            }
            removed.append(path)
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
    func usedKeys(among candidates: [String]) -> Set<String> {
        var used = Set<String>()
        let mentions = candidates.map { (AttachmentNames.key($0), NameMention(($0 as NSString).lastPathComponent)) }
        forEachNote { url, noteID in
            guard let data = try? RegularFile.read(url).data else { return }
            let text = String(decoding: data, as: UTF8.self)  // not UTF-8: still looked through
            used.formUnion(linkedAttachments(in: text, noteID: noteID).map(AttachmentNames.key))
            let unclaimed = mentions.filter { !used.contains($0.0) }
            guard !unclaimed.isEmpty else { return }
            let mentionable = MentionText(data)
            for (key, mention) in unclaimed where mention.isMentioned(in: mentionable) { used.insert(key) }
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

    /// Calls `body` with every note file and the id it has (or had, for the Trash).
    func forEachNote(_ body: (URL, String) -> Void) {
        let notes = NoteLibrary(folder: library)
        for notebook in [""] + notes.notebooks() {
            let folder = notebook.isEmpty ? library : library.appendingPathComponent(notebook)
            for entry in (try? FolderEntries.read(folder.path)) ?? [] where !entry.isFolder && NoteLibrary.isNoteFileName(entry.name) {
                body(folder.appendingPathComponent(entry.name), notebook.isEmpty ? entry.name : "\(notebook)/\(entry.name)")
            }
        }
        for item in LibraryTrash(library: library).items() {
            Self.forEachNote(inTrashItem: item, body)
        }
    }

    /// The note files of a Trash item (a note, or a notebook deleted whole) with their ids
    /// from before it was deleted.
    static func forEachNote(inTrashItem item: LibraryTrash.Item, _ body: (URL, String) -> Void) {
        func walk(_ url: URL, _ id: String, depth: Int) {
            if FileSystem.isFolder(url.path) {
                guard depth < 10 else { return }
                for entry in (try? FolderEntries.read(url.path)) ?? [] where !entry.name.hasPrefix(".") {
                    walk(url.appendingPathComponent(entry.name), id + "/" + entry.name, depth: depth + 1)
                }
            } else if NoteLibrary.isNoteFileName((id as NSString).lastPathComponent) {
                body(url, id)
            }
        }
        walk(item.url, item.originalPath, depth: 0)
    }
}
