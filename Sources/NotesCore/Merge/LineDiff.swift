import Foundation

/// Which lines two texts share, in order (a longest common subsequence of lines, by Myers'
/// O(ND) algorithm after trimming the common start and end). Used by the three-way merge and
/// to highlight what differs between two versions of a note.
///
/// Lines keep their terminator, so joining them gives back the exact text. When the texts
/// differ in more than `maximumEdits` lines the middle is treated as one change: a note
/// rewritten from top to bottom has no useful line matches, and the search would cost
/// O(N·D) memory.
public struct LineDiff: Sendable {
    public let old: [Substring]
    public let new: [Substring]
    /// Pairs (old line, new line) that are the same, increasing in both.
    public let matches: [(old: Int, new: Int)]

    public static let maximumEdits = 1000

    public init(old oldText: String, new newText: String) {
        self.init(old: LineDiff.lines(oldText), new: LineDiff.lines(newText))
    }

    public init(old: [Substring], new: [Substring]) {
        self.old = old
        self.new = new
        matches = LineDiff.match(old, new)
    }

    /// The text's lines, each with its "\n" (the last may have none). Found among the unicode
    /// scalars: Swift's `Character` takes "\r\n" as one, so a CRLF text has no "\n" Character.
    public static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        while let newline = scalars[start...].firstIndex(of: "\n") {
            let end = scalars.index(after: newline)
            lines.append(Substring(scalars[start..<end]))
            start = end
        }
        if start < scalars.endIndex { lines.append(Substring(scalars[start...])) }
        return lines
    }

    /// What turns the old text into the new: for each stretch of old lines that differs,
    /// the new text that takes its place (in old-line numbers, top to bottom).
    public var hunks: [(oldLines: Range<Int>, newText: String)] {
        var result: [(oldLines: Range<Int>, newText: String)] = []
        var old = 0, new = 0
        for pair in matches + [(old: self.old.count, new: self.new.count)] {
            if pair.old > old || pair.new > new {
                result.append((old..<pair.old, self.new[new..<pair.new].joined()))
            }
            old = pair.old + 1
            new = pair.new + 1
        }
        return result
    }

    /// Line numbers (from 0) of the old text that the new text does not have.
    public var removedLines: IndexSet {
        var set = IndexSet(integersIn: 0..<old.count)
        for pair in matches { set.remove(pair.old) }
        return set
    }

    /// Line numbers (from 0) of the new text that the old text does not have.
    public var addedLines: IndexSet {
        var set = IndexSet(integersIn: 0..<new.count)
        for pair in matches { set.remove(pair.new) }
        return set
    }

    private static func match(_ a: [Substring], _ b: [Substring]) -> [(old: Int, new: Int)] {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        var pairs = (0..<prefix).map { (old: $0, new: $0) }
        // Lines compared as integers: equal lines get the same number.
        var numbers: [Substring: Int] = [:]
        func number(_ line: Substring) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let numberedA = a[prefix..<(a.count - suffix)].map(number)
        let numberedB = b[prefix..<(b.count - suffix)].map(number)
        if let middle = myers(numberedA, numberedB) {
            pairs += middle.map { (old: $0.0 + prefix, new: $0.1 + prefix) }
        }
        pairs += (0..<suffix).map { (old: a.count - suffix + $0, new: b.count - suffix + $0) }
        return pairs
    }

    /// Myers' greedy shortest edit script; returns the matched pairs, or nil when the texts
    /// differ in more than `maximumEdits` lines (the saved frontiers then stay under ~16 MB).
    private static func myers(_ a: [Int], _ b: [Int]) -> [(Int, Int)]? {
        let n = a.count, m = b.count
        if n == 0 || m == 0 { return [] }
        let limit = min(n + m, maximumEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n && y < m && a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { found = true; break search }
            }
        }
        guard found else { return nil }
        // Walk back through the saved frontiers, collecting the diagonal (matching) runs.
        var pairs: [(Int, Int)] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : v[offset + previousK]
            let previousY = d == 0 ? 0 : previousX - previousK
            while x > previousX && y > previousY {
                x -= 1; y -= 1
                pairs.append((x, y))
            }
            if d > 0 { x = previousX; y = previousY }
        }
        return pairs.reversed()
    }
}

extension LineDiff {
    /// Where a position in `old` is in `new` (offsets in Unicode scalars, as GTK counts
    /// characters): same line and column when the line survived, else the start of where it
    /// was. Keeps the cursor on the word being typed when other lines change around it.
    public static func mapOffset(_ offset: Int, from old: String, to new: String) -> Int {
        let oldLines = lines(old), newLines = lines(new)
        let newCount = new.unicodeScalars.count
        var start = 0, line = 0
        while line < oldLines.count {
            let length = oldLines[line].unicodeScalars.count
            if offset < start + length || line == oldLines.count - 1 { break }
            start += length
            line += 1
        }
        guard line < oldLines.count else { return min(offset, newCount) }
        let column = offset - start
        let diff = LineDiff(old: oldLines, new: newLines)
        // The line itself, or the last surviving line before it (then: the start of the next).
        var target: (line: Int, column: Int)?
        for pair in diff.matches where pair.old <= line {
            target = pair.old == line ? (pair.new, column) : (pair.new + 1, 0)
        }
        guard let target else { return min(column, newCount) }
        let before = newLines.prefix(target.line).reduce(0) { $0 + $1.unicodeScalars.count }
        let lineLength = target.line < newLines.count ? newLines[target.line].unicodeScalars.count : 0
        return min(before + min(target.column, lineLength), newCount)
    }
}
