import Foundation

/// Merges two edits of the same text line by line, against the text both started from (diff3):
/// where only one side changed a stretch of lines, that change is taken; where both changed
/// the same stretch differently — or lines right next to each other, as git does — there is
/// a conflict and nothing is merged.
///
/// Used when a note changes on disk (another device, another program) while the editor holds
/// unsaved edits: the base is the text last read or written.
public enum ThreeWayMerge: Sendable {
    public enum Outcome: Equatable, Sendable {
        case merged(String)
        /// Both sides changed the same lines: the user decides.
        case conflict
    }

    public static func merge(base: String, ours: String, theirs: String) -> Outcome {
        if ours == theirs || theirs == base { return .merged(ours) }
        if ours == base { return .merged(theirs) }
        let baseLines = LineDiff.lines(base)
        let toOurs = LineDiff(old: baseLines, new: LineDiff.lines(ours))
        let toTheirs = LineDiff(old: baseLines, new: LineDiff.lines(theirs))
        // For each base line, where it is in ours and in theirs (nil: changed or removed).
        var inOurs = [Int?](repeating: nil, count: baseLines.count)
        var inTheirs = [Int?](repeating: nil, count: baseLines.count)
        for pair in toOurs.matches { inOurs[pair.old] = pair.new }
        for pair in toTheirs.matches { inTheirs[pair.old] = pair.new }

        var result = ""
        var o = 0, a = 0, b = 0  // positions in base, ours, theirs
        while true {
            // A stable run: base lines present, in the same place, on both sides.
            var run = 0
            while o + run < baseLines.count && inOurs[o + run] == a + run && inTheirs[o + run] == b + run { run += 1 }
            if run > 0 {
                for line in baseLines[o..<(o + run)] { result += line }
                o += run; a += run; b += run
                continue
            }
            // An unstable stretch, up to the next base line both sides still have.
            var next = o
            while next < baseLines.count && (inOurs[next] == nil || inTheirs[next] == nil) { next += 1 }
            let oursEnd = next < baseLines.count ? inOurs[next]! : toOurs.new.count
            let theirsEnd = next < baseLines.count ? inTheirs[next]! : toTheirs.new.count
            let baseChunk = baseLines[o..<next]
            let oursChunk = toOurs.new[a..<oursEnd]
            let theirsChunk = toTheirs.new[b..<theirsEnd]
            if baseChunk.isEmpty && oursChunk.isEmpty && theirsChunk.isEmpty { break }
            if oursChunk.elementsEqual(baseChunk) {
                for line in theirsChunk { result += line }
            } else if theirsChunk.elementsEqual(baseChunk) || oursChunk.elementsEqual(theirsChunk) {
                for line in oursChunk { result += line }
            } else {
                return .conflict
            }
            o = next; a = oursEnd; b = theirsEnd
        }
        return .merged(result)
    }
}
