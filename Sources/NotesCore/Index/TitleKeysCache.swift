import Foundation

/// Every note's title key (`notes.folded`) in memory, for the part of `[[` completion that
/// looks for titles containing what was typed: a scan of 100,000 keys in SQLite took 16–32 ms
/// (a function call per row), in one contiguous buffer it takes a few. Read again from the
/// index when another connection committed since (`PRAGMA data_version`), on the asking
/// thread (the window's lookup queue, never the main thread).
struct TitleKeysCache: Sendable {
    /// The connection and its data version the keys were read at.
    var connection: ObjectIdentifier
    var version: Int64
    private var rows: [Int64] = []
    private var ends: [Int] = []
    private var bytes: [UInt8] = []

    init(connection: ObjectIdentifier, version: Int64, keys: [(row: Int64, key: String)]) {
        self.connection = connection
        self.version = version
        rows.reserveCapacity(keys.count)
        ends.reserveCapacity(keys.count)
        for (row, key) in keys {
            rows.append(row)
            bytes.append(contentsOf: key.utf8)
            ends.append(bytes.count)
        }
    }

    /// The rows whose key contains `key` past its first byte (those starting so are found by
    /// the index), in the index's order, at most `limit`.
    func rows(containing key: String, limit: Int) -> [Int64] {
        let needle = Array(key.utf8)
        guard let first = needle.first, limit > 0 else { return [] }
        var found: [Int64] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            for (index, end) in ends.enumerated() {
                defer { start = end }
                guard end - start > needle.count else { continue }
                // One starting so was found by the index already (also when it has it again later).
                if needle.indices.allSatisfy({ buffer[start + $0] == needle[$0] }) { continue }
                var position = start + 1
                while position + needle.count <= end {
                    if buffer[position] == first, needle.indices.allSatisfy({ buffer[position + $0] == needle[$0] }) {
                        found.append(rows[index])
                        break
                    }
                    position += 1
                }
                if found.count >= limit { return }
            }
        }
        return found
    }

    /// The rows whose key contains every one of `keys` anywhere, in the index's order, at most `limit`.
    func rows(containingAll keys: [String], limit: Int) -> [Int64] {
        let needles = keys.map { Array($0.utf8) }.filter { !$0.isEmpty }
        guard !needles.isEmpty, limit > 0 else { return [] }
        var found: [Int64] = []
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            for (index, end) in ends.enumerated() {
                defer { start = end }
                let key = UnsafeBufferPointer(rebasing: buffer[start..<end])
                guard needles.allSatisfy({ Self.contains(key, $0) }) else { continue }
                found.append(rows[index])
                if found.count >= limit { return }
            }
        }
        return found
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count, let first = needle.first else { return false }
        var position = 0
        while position + needle.count <= haystack.count {
            if haystack[position] == first, needle.indices.allSatisfy({ haystack[position + $0] == needle[$0] }) { return true }
            position += 1
        }
        return false
    }
}
