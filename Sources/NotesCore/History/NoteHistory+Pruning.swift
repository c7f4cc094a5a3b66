import Foundation

/// Keeping the history small: thinning (`HistoryPolicy.thinning`) and the size cap, the oldest
/// versions going first. A note's newest version stays whatever the cap, so every note with
/// a history keeps at least its most recent past. Runs on the history's queue.
extension NoteHistory {
    /// Thins every note's history and keeps the cap (at start, on the history's queue).
    public func maintain() {
        queue.async {
            do {
                let ids = try self.historyIDs()
                var thinned = false
                for id in ids { thinned = try self.thin(history: id, now: self.clock(), erasing: false) || thinned }
                if thinned { try self.store().erase() }  // once, not once per note
                try self.keepWithinCap()
            } catch {
                Self.log("the note history was not thinned (\(error))")
            }
        }
    }

    /// Removes what thinning says of one note's history, erased from the store's files unless
    /// `erasing` is false (the caller erases once for many). Returns whether any went.
    @discardableResult
    func thin(history id: Int64, now: Date, erasing: Bool = true) throws -> Bool {
        let removed = HistoryPolicy.thinning(try versionsOnQueue(ofHistory: id), now: now)
        guard !removed.isEmpty else { return false }
        try database().transaction {
            for version in removed { try statement("DELETE FROM versions WHERE id = ?1").run([.integer(version.id)]) }
            try removeUnusedTexts()
        }
        if erasing { try store().erase() }
        return true
    }

    /// Removes the oldest versions (never a note's newest) until the texts fit in the cap.
    func keepWithinCap() throws {
        let cap = policy.cap(forDiskOf: folder)
        var stored = try storedBytesOnQueue()
        guard stored > cap else { return }
        let candidates = try statement("""
            SELECT id, key FROM versions WHERE id NOT IN (SELECT (SELECT id FROM versions AS newest WHERE newest.note = notes.id
                                                                  ORDER BY date DESC, id DESC LIMIT 1) FROM notes)
            ORDER BY date, id
            """).all { (id: $0.integer(0), key: $0.text(1)) }
        try database().transaction {
            for candidate in candidates where stored > cap {
                try statement("DELETE FROM versions WHERE id = ?1").run([.integer(candidate.id)])
                if try statement("SELECT 1 FROM versions WHERE key = ?1 LIMIT 1").first([.text(candidate.key)], { _ in true }) == nil {
                    stored -= try statement("SELECT length(data) FROM texts WHERE key = ?1").first([.text(candidate.key)]) { $0.integer(0) } ?? 0
                    try statement("DELETE FROM texts WHERE key = ?1").run([.text(candidate.key)])
                }
            }
        }
        try store().erase()
    }

    /// Deletes texts no version refers to any more (inside the caller's transaction).
    func removeUnusedTexts() throws {
        try statement("DELETE FROM texts WHERE NOT EXISTS (SELECT 1 FROM versions WHERE versions.key = texts.key)").run()
        try statement("DELETE FROM notes WHERE NOT EXISTS (SELECT 1 FROM versions WHERE versions.note = notes.id)").run()
    }

    func storedBytesOnQueue() throws -> Int64 {
        try database().integer("SELECT coalesce(sum(length(data)), 0) FROM texts") ?? 0
    }

    private func historyIDs() throws -> [Int64] {
        try statement("SELECT id FROM notes").all { $0.integer(0) }
    }
}
