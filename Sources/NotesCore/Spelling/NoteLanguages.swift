import Foundation

/// The notes whose spelling language differs from the default, kept IN the library so the
/// choice syncs with the notes: `.notula/languages.txt`, plain UTF-8, one note a line,
/// "FILE-NAME<TAB>LANGUAGE" ("note-20261121-101010-ab12c.md	de_DE"). Keyed by the file's name,
/// which Notula never changes, so the entry follows the note into any notebook. Hidden like the
/// pins file; written atomically; lines it cannot read are kept as they are.
public struct NoteLanguages: Sendable {
    public let library: URL

    public init(library: URL) {
        self.library = library
    }

    public var fileURL: URL { library.appendingPathComponent(".notula/languages.txt") }

    /// The language chosen for every note that has one, by file name.
    public func load() -> [String: String] {
        var languages: [String: String] = [:]
        for line in lines() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else { continue }
            languages[String(fields[0])] = String(fields[1]).trimmingCharacters(in: .whitespaces)
        }
        return languages
    }

    /// The language chosen for the note at `path` (a path in the library), if any.
    public func language(ofNoteAt path: String) -> String? {
        load()[Self.key(path)]
    }

    /// Chooses `language` for the note at `path`; nil goes back to the default.
    public func set(_ language: String?, forNoteAt path: String) throws {
        let key = Self.key(path)
        var kept: [String] = []
        for line in lines() where !(line.hasPrefix("#") || line.split(separator: "\t").first.map(String.init) == key) {
            kept.append(line)
        }
        if let language { kept.append("\(key)\t\(language)") }
        let header = "# The spelling language of notes that differ from Notula's default: file name, a tab, language.\n"
        try FileSystem.makeFolders(fileURL.deletingLastPathComponent().path)
        try AtomicFileWriter.write(Data((header + kept.map { $0 + "\n" }.joined()).utf8), to: fileURL)
    }

    private func lines() -> [String] {
        guard let data = RegularFile.contents(of: fileURL, followLinks: false) else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    private static func key(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
