import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Before the history, conflict resolution set versions aside as plain files in
/// `$XDG_STATE_HOME/notula/versions/NOTE-NAME/DATE ORIGIN.md` ("Discarded Versions"). They
/// become history entries (`.discarded`, at their date) of the note with that name in the
/// library, or of a history without a note when there is none; each file goes once its entry
/// is on disk.
extension NoteHistory {
    public static let discardedVersionsFolder = XDGDirectories().appState.appendingPathComponent("versions", isDirectory: true)

    public func importDiscardedVersions(from folder: URL = NoteHistory.discardedVersionsFolder, library: URL) {
        queue.async {
            let manager = FileManager.default
            guard let stems = try? manager.contentsOfDirectory(atPath: folder.path), !stems.isEmpty else { return }
            let notes = Self.notesByStem(in: library)
            let dates = DateFormatter()
            dates.locale = Locale(identifier: "en_US_POSIX")
            dates.dateFormat = "yyyy-MM-dd HHmmss"
            for stem in stems.sorted() {
                let versions = folder.appendingPathComponent(stem, isDirectory: true)
                // No such note any more: a history of its own, without a note.
                let note = notes[stem] ?? versions
                for name in ((try? manager.contentsOfDirectory(atPath: versions.path)) ?? []).sorted() {
                    let file = versions.appendingPathComponent(name)
                    guard let data = RegularFile.contents(of: file, followLinks: false) else { continue }
                    let date = dates.date(from: String(name.prefix(17))) ?? self.clock()
                    do {
                        try self.insert(data, path: Self.key(note), origin: .discarded, force: true, date: date)
                        try manager.removeItem(at: file)
                    } catch {
                        Self.log("the discarded version \(file.path) stays where it is (\(error))")
                    }
                }
                if notes[stem] == nil { try? self.database().transaction { try self.detach(under: Self.key(versions)) } }
                rmdir(versions.path)  // only when empty
            }
            rmdir(folder.path)
        }
    }

    /// The notes of `library` by file name without extension (the old store's folder names).
    private static func notesByStem(in library: URL) -> [String: URL] {
        var notes: [String: URL] = [:]
        func walk(_ folder: URL, depth: Int) {
            guard depth < 10, let entries = try? FolderEntries.read(folder.path) else { return }
            for entry in entries.sorted(by: { $0.name < $1.name }) {
                let url = folder.appendingPathComponent(entry.name)
                if entry.isFolder {
                    if NoteLibrary.isNotebook(entry.name, in: depth == 0 ? "" : folder.path) { walk(url, depth: depth + 1) }
                } else if NoteLibrary.isNoteFileName(entry.name) {
                    notes[url.deletingPathExtension().lastPathComponent] = notes[url.deletingPathExtension().lastPathComponent] ?? url
                }
            }
        }
        walk(library, depth: 0)
        return notes
    }
}
