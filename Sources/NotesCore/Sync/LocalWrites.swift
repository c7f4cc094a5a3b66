import Foundation

/// Fingerprints of the note versions this computer wrote in this session, so Show Conflicts
/// can say truthfully which side is "this computer": sync clients do not record where a
/// version came from in a way an editor can read.
public final class LocalWrites: @unchecked Sendable {
    public static let shared = LocalWrites()

    private let lock = NSLock()
    private var hashes: [String: [UInt64]] = [:]
    /// Per note; the older ones can no longer be in a conflict worth labelling.
    private let remembered = 16

    public init() {}

    public func record(_ hash: UInt64, for note: URL) {
        lock.lock()
        defer { lock.unlock() }
        var list = hashes[note.standardizedFileURL.path, default: []]
        list.removeAll { $0 == hash }
        list.append(hash)
        hashes[note.standardizedFileURL.path] = Array(list.suffix(remembered))
    }

    public func wrote(_ hash: UInt64, for note: URL) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return hashes[note.standardizedFileURL.path]?.contains(hash) ?? false
    }
}
