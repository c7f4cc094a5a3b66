/// A set of the library index's row ids (`NoteSummary.indexRow`) as a bitmap: what a search
/// found, handed over by SQLite in one value (`notula_rows`, CSQLite's shim.h) and tested per
/// listed note in nanoseconds. 100,000 matches as a `Set<String>` of paths cost a search
/// 60–100 ms at 100,000 notes; as bits, 12.5 KB.
public struct IndexRows: Sendable, Equatable {
    private var bytes: [UInt8]

    /// The bitmap as `notula_rows` returns it (bit n % 8 of byte n / 8).
    init(bitmap: [UInt8] = []) {
        bytes = bitmap
    }

    public func contains(_ row: Int64) -> Bool {
        guard row >= 0, row / 8 < Int64(bytes.count) else { return false }
        return bytes[Int(row / 8)] & (1 << UInt8(row % 8)) != 0
    }

    /// Every row in either set.
    mutating func formUnion(_ other: IndexRows) {
        if other.bytes.count > bytes.count { bytes += [UInt8](repeating: 0, count: other.bytes.count - bytes.count) }
        for (at, byte) in other.bytes.enumerated() where byte != 0 { bytes[at] |= byte }
    }

    /// Only the rows in both sets.
    mutating func formIntersection(_ other: IndexRows) {
        if bytes.count > other.bytes.count { bytes.removeLast(bytes.count - other.bytes.count) }
        for at in bytes.indices { bytes[at] &= other.bytes[at] }
    }

    /// The rows from the highest down (the newest indexed first), at most `limit`, skipping `except`.
    func highestRows(limit: Int, except: Set<Int64> = []) -> [Int64] {
        var found: [Int64] = []
        for at in bytes.indices.reversed() where bytes[at] != 0 {
            for bit in (0..<8).reversed() where bytes[at] & (1 << UInt8(bit)) != 0 {
                let row = Int64(at * 8 + bit)
                if except.contains(row) { continue }
                found.append(row)
                if found.count >= limit { return found }
            }
        }
        return found
    }

    /// How many rows the set holds.
    public var count: Int { bytes.reduce(0) { $0 + $1.nonzeroBitCount } }
}
