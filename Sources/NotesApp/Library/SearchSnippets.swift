import Dispatch
import Foundation
import NotesCore

/// The matching lines of the notes listed for the current search, for rows whose preview does
/// not show the match: each read once per query from the note's file, off the main thread,
/// and only when its row asks (rows on screen).
final class SearchSnippets {
    /// Matching lines for `query` (nil: the note has none in its start).
    private var lines: [String: String?] = [:]
    private var query = ""
    /// Notes whose line is being read, and where (never the main thread).
    private var reading: Set<String> = []
    private let files = DispatchQueue(label: "notula.snippets", qos: .userInitiated)

    /// Forgets every line (notes changed, or the query did).
    func forget() { lines = [:] }

    /// The note's matching line for `query` when known; otherwise nil now, and the line is
    /// read from `url`, then `refresh` is called for the row to ask again (also when it was
    /// read for a query that is no longer `currentQuery`).
    func line(of id: String, at url: URL, for query: String, currentQuery: @escaping @MainActor () -> String,
              refresh: @escaping @MainActor (String) -> Void) -> String? {
        if query != self.query {
            self.query = query
            lines = [:]
        }
        if let known = lines[id] { return known }
        guard !reading.contains(id) else { return nil }
        reading.insert(id)
        files.async {
            let line = (try? RegularFile.prefix(url, count: 64 * 1024)).flatMap {
                SearchSnippet.line(in: String(decoding: $0.bytes, as: UTF8.self), for: query)
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.reading.remove(id)
                let isCurrent = query == currentQuery()
                // Read for an older query: the row asks again for the current one.
                if isCurrent, query == self.query { self.lines[id] = line }
                if line != nil || !isCurrent { refresh(id) }
            }
        }
        return nil
    }
}
