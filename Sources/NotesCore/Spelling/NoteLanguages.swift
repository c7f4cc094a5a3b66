import Foundation

/// The notes whose spelling language differs from the default, kept IN the library so the
/// choice syncs with the notes: `.notula/languages.txt`, plain UTF-8, one note a line,
/// "FILE-NAME<TAB>LANGUAGE" ("note-20261121-101010-ab12c.md	de_DE"). Keyed by the file's name,
/// which Notula never changes, so the entry follows the note into any notebook. Hidden like the
/// pins file; written atomically. A move of every note that renames files (FAT, exFAT, name
/// collisions) carries the entries along (`LibraryMover.carryLanguages`).
public struct NoteLanguages: Sendable {
    public let library: URL

    public init(library: URL) {
        self.library = library
    }

    public var fileURL: URL { library.appendingPathComponent(Self.path) }

    /// The language chosen for every note that has one, by file name.
    public func load() -> [String: String] {
        Self.entries(in: fileURL)
    }

    /// The language chosen for the note at `path` (a path in the library), if any.
    public func language(ofNoteAt path: String) -> String? {
        load()[Self.key(path)]
    }

    /// Chooses `language` for the note at `path`; nil goes back to the default.
    public func set(_ language: String?, forNoteAt path: String) throws {
        var entries = load()
        entries[Self.key(path)] = language
        try save(entries)
    }

    /// Writes every entry (sorted, so the file changes only when the choices do).
    public func save(_ entries: [String: String]) throws {
        let header = "# The spelling language of notes that differ from Notula's default: file name, a tab, language.\n"
        try FileSystem.makeFolders(fileURL.deletingLastPathComponent().path)
        try AtomicFileWriter.write(Data((header + entries.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()).utf8), to: fileURL)
    }

    /// The entries of a languages file (none when there is no file or it cannot be read).
    static func entries(in url: URL) -> [String: String] {
        guard let data = RegularFile.contents(of: url, followLinks: false) else { return [:] }
        var entries: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let language = fields.count == 2 ? fields[1].trimmingCharacters(in: .whitespaces) : ""
            guard !fields[0].isEmpty, !language.isEmpty else { continue }
            entries[String(fields[0])] = language
        }
        return entries
    }

    /// The languages file, relative to the library.
    static let path = ".notula/languages.txt"

    static func key(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
