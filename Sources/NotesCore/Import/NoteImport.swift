import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Importing another app's notes into the library (issue #34): Gnote's, Tomboy's and
/// tomboy-ng's `.note` files (`TomboyNote`), each written as a new Markdown note — in its
/// notebook's folder, named after its creation time (so the index reads that date), its
/// modification time the note's last change. A name is never reused: nothing in the library
/// is overwritten. The source folder is only read. Templates are skipped; so are the notes
/// those apps keep after deleting them (their `Backup` folder is not read). A note an earlier
/// import brought in is skipped (`ImportJournal`), so an import stopped halfway can simply be
/// run again. Everything that could not be converted exactly is in the report. Every method blocks on disk: call them off
/// the main thread.
public enum NoteImport {
    /// A folder of another app's notes found on this computer.
    public struct Source: Sendable, Equatable {
        public var app: String
        public var folder: URL
        public var noteCount: Int
    }

    /// What happened to one file.
    public struct Item: Sendable, Equatable {
        /// The source file's name.
        public var file: String
        public var title: String
        /// Where it went in the library (nil: skipped).
        public var noteID: String?
        public var outcome: Outcome
    }

    public enum Outcome: Sendable, Equatable {
        case imported
        /// Imported as far as it could be read.
        case importedWithProblems([TomboyNote.Problem])
        case skippedTemplate
        /// An earlier import brought it in already (`ImportJournal`).
        case alreadyImported
        case skippedUnreadable(String)
        case failed(String)
    }

    public struct Report: Sendable, Equatable {
        public var items: [Item] = []
        public var wasCancelled = false
        public var imported: [Item] { items.filter { $0.noteID != nil } }
        public var skipped: [Item] { items.filter { $0.noteID == nil } }
        public var withProblems: [Item] { items.filter { if case .importedWithProblems = $0.outcome { return true } else { return false } } }
    }

    /// The apps whose notes folders exist under `home` with notes in them:
    /// Gnote, Tomboy and tomboy-ng (`~/.local/share/…`, or `$XDG_DATA_HOME`).
    public static func knownSources(dataHome: URL) -> [Source] {
        [("Gnote", "gnote"), ("Tomboy", "tomboy"), ("tomboy-ng", "tomboy-ng")].compactMap { app, folder in
            let url = dataHome.appendingPathComponent(folder, isDirectory: true)
            let count = noteFiles(in: url).count
            return count > 0 ? Source(app: app, folder: url, noteCount: count) : nil
        }
    }

    /// The `.note` files directly in `folder`, by name.
    public static func noteFiles(in folder: URL) -> [URL] {
        let names = ((try? FolderEntries.read(folder.path)) ?? []).map(\.name)  // by bytes: a name that is not UTF-8 is kept
        return names.filter { $0.hasSuffix(".note") && !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Imports `files` into `library`. `progress` gets (done, total) after each file and
    /// returns false to stop (the notes written so far stay, the report says so).
    public static func run(_ files: [URL], into library: URL, maxNoteBytes: Int = 64 << 20,
                           progress: (Int, Int) -> Bool = { _, _ in true }) -> Report {
        var report = Report()
        let journal = ImportJournal(library: library)
        for (index, file) in files.enumerated() {
            report.items.append(importOne(file, into: library, journal: journal, maxNoteBytes: maxNoteBytes))
            if !progress(index + 1, files.count) {
                report.wasCancelled = index + 1 < files.count
                break
            }
        }
        return report
    }

    private static func importOne(_ file: URL, into library: URL, journal: ImportJournal, maxNoteBytes: Int) -> Item {
        let name = file.lastPathComponent
        if case .done = journal.state(of: ImportJournal.key(of: file)) {
            return Item(file: name, title: name, noteID: nil, outcome: .alreadyImported)  // not read again
        }
        let data: Data
        do {
            data = try RegularFile.prefix(file, count: maxNoteBytes).bytes.withUnsafeBufferPointer { Data(buffer: $0) }
        } catch {
            return Item(file: name, title: name, noteID: nil, outcome: .skippedUnreadable((error as? StorageError)?.explanation ?? "\(error)"))
        }
        let note = TomboyNote.parse(data)
        if note.isTemplate { return Item(file: name, title: note.title, noteID: nil, outcome: .skippedTemplate) }
        if note.problems.contains(.noContent), note.title.isEmpty {
            // TRANSLATORS: in the import's report: why a file was not imported
            return Item(file: name, title: name, noteID: nil, outcome: .skippedUnreadable(tr("it is no Gnote or Tomboy note")))
        }
        do {
            let folder = try notebookFolder(note.notebook, in: library)
            let created = note.created ?? note.changed ?? Date()
            let changed = note.changed.map { timespec(tv_sec: time_t($0.timeIntervalSince1970), tv_nsec: 0) }
            let placing = try journal.place(ImportJournal.key(of: file), data: Data(note.markdown.utf8), modified: changed,
                                            in: folder, library: library) { _ in NoteFileName.make(date: created) }
            guard case .created(let id) = placing else { return Item(file: name, title: note.title, noteID: nil, outcome: .alreadyImported) }
            return Item(file: name, title: note.title, noteID: id, outcome: note.problems.isEmpty ? .imported : .importedWithProblems(note.problems))
        } catch {
            return Item(file: name, title: note.title, noteID: nil, outcome: .failed((error as? StorageError)?.explanation ?? "\(error)"))
        }
    }

    /// The notebook's folder (made when missing); a name no folder can have loses its leading
    /// dots and has "-" for "/".
    private static func notebookFolder(_ notebook: String?, in library: URL) throws -> URL {
        let root = library.standardizedFileURL
        guard var name = notebook?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return root }
        name = String(name.replacingOccurrences(of: "/", with: "-").drop(while: { $0 == "." || $0 == " " }))
        if name.isEmpty { return root }
        if name.utf8.count > 200 { name = String(decoding: Array(name.utf8.prefix(200)), as: UTF8.self) }
        if name == AttachmentStore.folderName { name += " (notebook)" }
        let folder = root.appendingPathComponent(name, isDirectory: true)
        if !FileSystem.exists(folder.path) {
            guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST else { throw StorageError(.createFolder, path: folder.path) }
        }
        return folder
    }
}
