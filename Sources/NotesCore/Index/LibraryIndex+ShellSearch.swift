import Foundation

/// The desktop's search (GNOME Shell's search provider, issue #33): the notes holding every
/// term in their title or text, found through the same index as the window's search; the
/// notes whose titles hold every term first, then the others, each group newest first.
/// Bounded at any library size: titles are matched in the titles' keys in memory
/// (`TitleKeysCache`), other matches are taken from the newest indexed rows, and at most
/// `limit` notes are read (≤ 50 ms at 100,000 notes: `bench_shell_search.py`).
extension LibraryIndex {
    /// A result as the desktop shows it: the note's title and the line where a term occurs.
    public struct ShellResult: Equatable, Sendable {
        public var noteID: String
        public var title: String
        public var line: String
    }

    /// What a desktop search may ask (its callers are any program on the session bus): a
    /// term of more bytes than `shellTermLimit` is no word a note holds, and more terms than
    /// `shellTermsLimit` no search a person typed. Bounded, a 1 MB term costs nothing (it
    /// took 18–34 s and 4.6 GB, holding every other search up).
    public static let shellTermLimit = 256
    public static let shellTermsLimit = 32
    /// The Shell asks for the metas of a few results at a time.
    public static let shellIdsLimit = 64

    /// `terms` when a desktop search may ask them, else nil (answered with nothing).
    public static func acceptedShellTerms(_ terms: [String]) -> [String]? {
        guard terms.count <= shellTermsLimit, terms.allSatisfy({ $0.utf8.count <= shellTermLimit }) else { return nil }
        return terms
    }

    /// The notes (ids) holding every one of `terms`, titles first, at most `limit`; templates
    /// are not notes to find there (`NoteTemplate`). Any thread; answers from what is indexed
    /// (a first indexing under way finds fewer).
    public func shellSearch(_ terms: [String], limit: Int = 50) -> [String] {
        guard let terms = Self.acceptedShellTerms(terms) else { return [] }
        let query = terms.joined(separator: " ")
        guard !TextFolding.words(of: query).isEmpty else { return [] }
        return reading { connection -> [String] in
            guard let rows = try matchingRows(query) else { return [] }
            let keys = terms.map(TitleKey.of).filter { !$0.isEmpty }
            let titled = try titleKeys(on: connection).rows(containingAll: keys, limit: 10 * limit).filter(rows.contains)
            let others = rows.highestRows(limit: limit, except: Set(titled))
            let note = try connection.prepare("SELECT path, modified FROM notes WHERE id = ?")
            let read = { (ids: [Int64]) in
                try ids.compactMap { id in try note.first([.integer(id)]) { (path: $0.text(0), modified: $0.real(1)) } }
                    .filter { !NoteTemplate.isTemplate($0.path) }.sorted { $0.modified > $1.modified }.map(\.path)
            }
            return Array((try read(titled) + read(others)).prefix(limit))
        } ?? []
    }

    /// The title and matching line of each note of `ids` still indexed, in that order. The
    /// line is read from the note's file (its first 64 KB), the title line only when no other
    /// line holds a term; with none, the note's preview.
    public func shellResults(_ ids: [String], terms: [String]) -> [ShellResult] {
        let ids = ids.prefix(Self.shellIdsLimit).filter(LibraryNoteID.isWellFormed)
        let terms = Self.acceptedShellTerms(terms) ?? []
        let rows = reading { connection -> [(id: String, title: String, preview: String)] in
            let note = try connection.prepare("SELECT title, preview FROM notes WHERE path = ?")
            return try ids.compactMap { id in
                try note.first([.text(id)]) { (id: id, title: $0.text(0), preview: $0.text(1)) }
            }
        } ?? []
        return rows.map { row in
            let text = (try? RegularFile.prefix(library.folder.appendingPathComponent(row.id), count: 64 * 1024))
                .map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
            let body = text.drop(while: { $0.isWhitespace }).drop(while: { $0 != "\n" })
            let line = terms.lazy.compactMap { SearchSnippet.line(in: String(body), for: $0) }.first
                ?? terms.lazy.compactMap { SearchSnippet.line(in: text, for: $0) }.first
            return ShellResult(noteID: row.id, title: row.title, line: line ?? row.preview)
        }
    }
}
