import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Notebooks are folders in the library (nested allowed), so other tools' layouts (Nextcloud
/// Notes' categories as subfolders) are notebooks too. Creating, renaming and moving notes
/// between them are renames within the library (a moved note's relative links are written
/// again for its new folder, nothing else). Every method may block
/// on disk; call them off the main thread.
public struct Notebooks: Sendable {
    public let library: URL
    /// Told where notes went, so their histories follow them.
    let history: NoteHistory?

    public init(library: URL, history: NoteHistory? = nil) {
        self.library = library
        self.history = history
    }

    /// Makes the notebook `name` inside `parent` ("" for the top); returns its path.
    @discardableResult
    public func create(_ name: String, in parent: String = "") throws -> String {
        let clean = try Notebooks.validName(name, path: library.appendingPathComponent(parent).path)
        try Notebooks.refuseAttachmentsFolder(clean, in: parent, path: library.appendingPathComponent(clean).path)
        let path = parent.isEmpty ? clean : "\(parent)/\(clean)"
        let url = library.appendingPathComponent(path)
        if FileSystem.exists(url.path) { throw StorageError(.createFolder, path: url.path, code: EEXIST) }
        guard mkdir(url.path, 0o700) == 0 else { throw StorageError(.createFolder, path: url.path) }
        AtomicFileWriter.syncFolder(url.deletingLastPathComponent().path)
        return path
    }

    /// Renames a notebook (its notes go with it); returns the new path. Notes that link into
    /// it are written again to its new name (`followLinks(intoNotebookRenamedFrom:to:)`), at
    /// once or — `followingLinks` false — when the caller asks, after it showed the change.
    @discardableResult
    public func rename(_ path: String, to name: String, followingLinks: Bool = true) throws -> String {
        let source = library.appendingPathComponent(path)
        let clean = try Notebooks.validName(name, path: source.path)
        let parent = (path as NSString).deletingLastPathComponent
        try Notebooks.refuseAttachmentsFolder(clean, in: parent, path: source.path)
        let newPath = parent.isEmpty ? clean : "\(parent)/\(clean)"
        guard newPath != path else { return path }
        let target = library.appendingPathComponent(newPath)
        if FileSystem.exists(target.path) { throw StorageError(.rename, path: target.path, code: EEXIST) }
        // A folder another program makes under the new name meanwhile is never merged into.
        guard renameWithoutReplacing(source.path, target.path) == 0 else {
            throw errno == EEXIST || errno == ENOTEMPTY ? StorageError(.rename, path: target.path, code: EEXIST) : StorageError(.rename, path: source.path)
        }
        AtomicFileWriter.syncFolder(target.deletingLastPathComponent().path)
        history?.moved(from: source, to: target)
        if followingLinks { followLinks(intoNotebookRenamedFrom: path, to: newPath) }
        return newPath
    }

    /// Writes again the links into the notebook renamed from `path` to `newPath`, in other
    /// notes and in its own notes back into it (`LinkRetarget`: every note of the library and
    /// the Trash is looked through, only those that mention its name are parsed; atomically,
    /// never over another program's version; one that cannot be written keeps its text).
    public func followLinks(intoNotebookRenamedFrom path: String, to newPath: String) {
        LinkRetarget.followMove(in: library, names: [(path as NSString).lastPathComponent],
                                moved: LinkRetarget.moves(items: [:], folders: [path: newPath]),
                                oldID: { $0.hasPrefix(newPath + "/") ? path + $0.dropFirst(newPath.count) : $0 })
    }

    /// Moves the note `id` into `notebook` ("" for the top); returns its new id. A note of the
    /// same name there keeps its name; this one gets " 2", " 3"…. Its relative links (pictures,
    /// files, other notes) are written again from the new folder first (`AttachmentLinkRebase`:
    /// `AtomicFileWriter.edit`), so they lead where they did; then the notes
    /// that link it are written again to its new place (`followLinks(toNoteMovedFrom:to:)`),
    /// at once or — `followingLinks` false — when the caller asks, after it showed the move.
    /// `named`: the name it takes there if free (an undo puts a note back under the name it had).
    /// `syncingFolders` false: the caller moving many notes makes the folders durable once, at its end.
    public func move(note id: String, to notebook: String, named: String? = nil, followingLinks: Bool = true,
                     syncingFolders: Bool = true) throws -> String {
        let source = library.appendingPathComponent(id)
        let folder = notebook.isEmpty ? library : library.appendingPathComponent(notebook)
        let original = named ?? (id as NSString).lastPathComponent
        guard (id as NSString).deletingLastPathComponent != notebook else { return id }
        // The links are rebased for the folder (the name does not matter to them), then the
        // note takes the first free name there in one step: a note of the same name arriving
        // meanwhile keeps its name and is never replaced.
        let inNotebook = notebook.isEmpty ? original : "\(notebook)/\(original)"
        let rebased = try AttachmentLinkRebase.rebaseFile(at: source, from: id, to: inNotebook)
        let name: String
        do {
            name = try FileSystem.renameToFreeName(source.path, in: folder.path, for: .rename) { FileSystem.numberedName(original, $0) }
        } catch {
            if rebased { _ = try? AttachmentLinkRebase.rebaseFile(at: source, from: inNotebook, to: id) }  // it stays: links as they were
            throw error
        }
        let newID = notebook.isEmpty ? name : "\(notebook)/\(name)"
        if syncingFolders {
            AtomicFileWriter.syncFolder(folder.path)
            AtomicFileWriter.syncFolder(source.deletingLastPathComponent().path)
        }
        history?.moved(from: source, to: folder.appendingPathComponent(name))
        if followingLinks { followLinks(toNoteMovedFrom: id, to: newID) }
        return newID
    }

    /// Writes again the links to the note moved from `id` to `newID` in other notes (and its
    /// own to itself), as `followLinks(intoNotebookRenamedFrom:to:)` does. About half a second
    /// at 100,000 notes: callers run it after they showed the move.
    public func followLinks(toNoteMovedFrom id: String, to newID: String) {
        LinkRetarget.followMove(in: library, names: [(id as NSString).lastPathComponent], moved: { $0 == id ? newID : nil })
    }

    /// Removes the notebook at `path` when it holds nothing (throws otherwise: ENOTEMPTY).
    public func removeEmpty(_ path: String) throws {
        let url = library.appendingPathComponent(path)
        guard rmdir(url.path) == 0 else { throw StorageError(.remove, path: url.path) }
        AtomicFileWriter.syncFolder(url.deletingLastPathComponent().path)
    }

    /// Whether `path` is a notebook of the library now: a folder there (by `lstat`: a symbolic
    /// link out of the library is none).
    public func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(library.appendingPathComponent(path).path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether the notebook holds anything (notes, notebooks, other files) — deleting asks then.
    public func isEmpty(_ path: String) -> Bool {
        ((try? FolderEntries.read(library.appendingPathComponent(path).path)) ?? []).isEmpty
    }

    /// The library's top `attachments` folder holds the notes' pictures and files: no notebook
    /// may be named so there (in any case: on vfat and exFAT it would be that folder).
    static func refuseAttachmentsFolder(_ name: String, in parent: String, path: String) throws {
        guard parent.isEmpty, name.lowercased() == AttachmentStore.folderName else { return }
        throw StorageError(.createFolder, path: path, code: EINVAL,
                           reason: tr("“attachments” at the top of the library holds the pictures and files of your notes, so a notebook cannot be named so there. Choose another name, or make it inside another notebook."))
    }

    /// A name for a folder: trimmed, not empty, no "/", not hidden, not too long.
    static func validName(_ name: String, path: String) throws -> String {
        let clean = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !clean.isEmpty, !clean.contains("/"), clean != ".", clean != "..", !clean.hasPrefix(".") else {
            throw StorageError(.createFolder, path: path, code: EINVAL,
                               reason: tr("A notebook name cannot be empty, start with a dot or contain “/”."))
        }
        guard clean.utf8.count <= 200 else { throw StorageError(.createFolder, path: path, code: ENAMETOOLONG) }
        return clean
    }
}
