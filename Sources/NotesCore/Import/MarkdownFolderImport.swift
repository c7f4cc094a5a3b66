import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Importing a folder of Markdown or text files (an Obsidian vault, a Simplenote or Standard
/// Notes export, another app's notes folder) into the library (issue #34): each `.md`,
/// `.markdown` and `.txt` file is copied byte for byte, its subfolder becoming a notebook of
/// the same name, its modification time kept; the pictures and files its relative links point
/// to inside that folder are copied to the same place relative to it, so the links keep
/// working. Hidden folders (`.obsidian`, `.git`, `.trash`) are left out. A name the library
/// has already gets a number ("Plan 2.md"); nothing is overwritten, the source is only read.
public enum MarkdownFolderImport {
    /// The note files under `folder`, as paths relative to it, by path.
    public static func noteFiles(in folder: URL) -> [String] {
        var found: [String] = []
        let root = folder.standardizedFileURL.path
        func walk(_ relative: String, depth: Int) {
            guard depth < 32 else { return }
            let path = relative.isEmpty ? root : root + "/" + relative
            // By bytes (`FolderEntries`): a name that is not UTF-8 is found and read by its own bytes.
            for name in ((try? FolderEntries.read(path)) ?? []).map(\.name).sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(root + "/" + child, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    walk(child, depth: depth + 1)
                } else if info.st_mode & S_IFMT == S_IFREG, NoteLibrary.isNoteFileName(name) {
                    found.append(child)
                }
            }
        }
        walk("", depth: 0)
        return found
    }

    /// Copies the note files (paths relative to `folder`) into `library`; `progress` as in
    /// `NoteImport.run`.
    public static func run(_ files: [String], from folder: URL, into library: URL, maxNoteBytes: Int = 64 << 20,
                           progress: (Int, Int) -> Bool = { _, _ in true }) -> NoteImport.Report {
        var report = NoteImport.Report()
        let source = folder.standardizedFileURL
        var copiedAttachments = Set<String>()
        let journal = ImportJournal(library: library)
        for (index, relative) in files.enumerated() {
            report.items.append(copy(relative, from: source, into: library.standardizedFileURL, journal: journal, maxNoteBytes: maxNoteBytes,
                                     attachments: &copiedAttachments))
            if !progress(index + 1, files.count) {
                report.wasCancelled = index + 1 < files.count
                break
            }
        }
        return report
    }

    private static func copy(_ relative: String, from source: URL, into library: URL, journal: ImportJournal, maxNoteBytes: Int,
                             attachments: inout Set<String>) -> NoteImport.Item {
        let name = (relative as NSString).lastPathComponent
        let title = (name as NSString).deletingPathExtension
        let file = source.appendingPathComponent(relative)
        if case .done = journal.state(of: ImportJournal.key(of: file)) {
            return NoteImport.Item(file: relative, title: title, noteID: nil, outcome: .alreadyImported)
        }
        let read: (bytes: [UInt8], info: stat)
        do {
            read = try RegularFile.prefix(file, count: maxNoteBytes + 1)
        } catch {
            return NoteImport.Item(file: relative, title: title, noteID: nil, outcome: .skippedUnreadable((error as? StorageError)?.explanation ?? "\(error)"))
        }
        guard read.bytes.count <= maxNoteBytes else {
            // TRANSLATORS: in the import's report: why a file was not imported; %d: megabytes
            return NoteImport.Item(file: relative, title: title, noteID: nil, outcome: .skippedUnreadable(tr("it is larger than %d MB", maxNoteBytes >> 20)))
        }
        do {
            let notebook = (relative as NSString).deletingLastPathComponent
            let folder = notebook.isEmpty ? library : library.appendingPathComponent(notebook, isDirectory: true)
            try FileSystem.makeFolders(folder.path)
            var copied = attachments
            let placing = try journal.place(ImportJournal.key(of: file), data: Data(read.bytes), modified: read.info.st_mtim,
                                            in: folder, library: library, name: { FileSystem.numberedName(name, $0) },
                                            finish: { copyLinkedFiles(of: String(decoding: read.bytes, as: UTF8.self), note: relative,
                                                                      from: source, into: library, copied: &copied) })
            attachments = copied
            guard case .created(let id) = placing else { return NoteImport.Item(file: relative, title: title, noteID: nil, outcome: .alreadyImported) }
            let problems: [TomboyNote.Problem] = String(bytes: read.bytes, encoding: .utf8) == nil ? [.notUTF8] : []
            return NoteImport.Item(file: relative, title: title, noteID: id, outcome: problems.isEmpty ? .imported : .importedWithProblems(problems))
        } catch {
            return NoteImport.Item(file: relative, title: title, noteID: nil, outcome: .failed((error as? StorageError)?.explanation ?? "\(error)"))
        }
    }

    /// The files the note's relative links point to inside the source folder, copied to the
    /// same place relative to the library (once each; an existing file there is kept).
    private static func copyLinkedFiles(of text: String, note: String, from source: URL, into library: URL, copied: inout Set<String>) {
        let noteFolder = (note as NSString).deletingLastPathComponent
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) where line.contains("](") {
            for link in MarkdownInline.links(in: String(line)) {
                let address = link.address.removingPercentEncoding ?? link.address
                guard !address.isEmpty, !address.contains(":"), !address.hasPrefix("/"), !address.hasPrefix("#") else { continue }
                let relative = ((noteFolder as NSString).appendingPathComponent(address) as NSString).standardizingPath
                guard !relative.hasPrefix(".."), !relative.hasPrefix("/"), !NoteLibrary.isNoteFileName(relative), copied.insert(relative).inserted else { continue }
                let from = source.appendingPathComponent(relative), to = library.appendingPathComponent(relative)
                guard !FileSystem.exists(to.path), let read = try? RegularFile.prefix(from, count: 256 << 20) else { continue }
                try? FileSystem.makeFolders(to.deletingLastPathComponent().path)
                _ = try? AtomicFileWriter.create(Data(read.bytes), at: to, modified: read.info.st_mtim)  // a file there is kept
            }
        }
    }
}
