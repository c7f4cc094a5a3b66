import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which versions the `NoteHistory` keeps, after Time Machine: everything from the last day,
/// the newest of each hour for a week, of each day for three months, of each week after that;
/// while a note is edited, at most one version every `editingInterval` (the first save of the
/// writing keeps one at once); and all of it within
/// `capBytes`, the oldest going first.
public struct HistoryPolicy: Sendable {
    public var editingInterval: TimeInterval
    /// The most the history may take on disk (compressed); nil: 5 % of its disk, at most 1 GB.
    public var capBytes: Int64?

    public init(editingInterval: TimeInterval = 5 * 60, capBytes: Int64? = nil) {
        self.editingInterval = editingInterval
        self.capBytes = capBytes
    }

    static let hour: TimeInterval = 3600
    static let day: TimeInterval = 24 * hour

    /// The length of the buckets versions of this age share (nil: every version is kept).
    static func bucketLength(forAge age: TimeInterval) -> TimeInterval? {
        switch age {
        case ..<day: return nil
        case ..<(7 * day): return hour
        case ..<(90 * day): return day
        default: return 7 * day
        }
    }

    /// The versions to remove from one note's history: all but the newest of each bucket.
    /// Versions set aside by a conflict resolution stay.
    public static func thinning(_ versions: [HistoryVersion], now: Date) -> [HistoryVersion] {
        var seen = Set<String>()
        var removed: [HistoryVersion] = []
        for version in versions.sorted(by: { $0.date > $1.date }) where !version.origin.isSetAside {
            let age = now.timeIntervalSince(version.date)
            guard let length = bucketLength(forAge: age) else { continue }
            let bucket = "\(length)/\(Int64((version.date.timeIntervalSince1970 / length).rounded(.down)))"
            if !seen.insert(bucket).inserted { removed.append(version) }
        }
        return removed
    }

    /// The cap for a history kept in `folder`: the chosen one, or 5 % of its disk, at most 1 GB.
    public func cap(forDiskOf folder: URL) -> Int64 {
        if let capBytes { return capBytes }
        let gigabyte: Int64 = 1 << 30
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return gigabyte }
        let disk = Int64(info.f_blocks) * Int64(info.f_frsize)
        return max(1 << 20, min(gigabyte, disk / 20))
    }
}
