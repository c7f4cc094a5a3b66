/// The rows each word of the last searches matched, kept while the index has not changed:
/// typing "note 4", "note 43", "note 432" asks SQLite only for the word that is new (at
/// 100,000 notes "note" alone is 100,000 rows, ~9 ms of every keystroke). `PRAGMA
/// data_version` on the searching connection changes when another connection (the writer)
/// commits: the cache is then emptied. Not for an index in memory, where one connection does
/// both.
struct WordRowsCache: Sendable {
    private var connection: ObjectIdentifier?
    private var version: Int64 = -1
    private var rows: [String: IndexRows] = [:]
    /// Keys, oldest first.
    private var order: [String] = []
    static let mostWords = 16

    /// Empties it unless it was filled on `connection` at data version `version`.
    mutating func check(connection: ObjectIdentifier, version: Int64) {
        guard connection != self.connection || version != self.version else { return }
        self.connection = connection
        self.version = version
        rows = [:]
        order = []
    }

    /// How many words' rows were found here (a test's figure).
    private(set) var reused = 0

    mutating func rows(for key: String) -> IndexRows? {
        guard let found = rows[key] else { return nil }
        reused += 1
        return found
    }

    mutating func keep(_ found: IndexRows, for key: String) {
        if rows.updateValue(found, forKey: key) == nil { order.append(key) }
        while order.count > Self.mostWords { rows[order.removeFirst()] = nil }
    }
}
