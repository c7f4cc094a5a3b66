import Foundation
import Synchronization

/// Fingerprints of the note versions this computer wrote in this session, so Show Conflicts
/// can say truthfully which side is "this computer": sync clients do not record where a
/// version came from in a way an editor can read.
public final class LocalWrites: Sendable {
    public static let shared = LocalWrites()

    private let hashes = Mutex<[String: [UInt64]]>([:])
    /// Per note; the older ones can no longer be in a conflict worth labelling.
    private let remembered = 16

    public init() {}

    public func record(_ hash: UInt64, for note: URL) {
        let key = note.standardizedFileURL.path, remembered = self.remembered
        hashes.withLock { hashes in
            var list = hashes[key, default: []]
            list.removeAll { $0 == hash }
            list.append(hash)
            hashes[key] = Array(list.suffix(remembered))
        }
    }

    public func wrote(_ hash: UInt64, for note: URL) -> Bool {
        let key = note.standardizedFileURL.path
        return hashes.withLock { $0[key]?.contains(hash) ?? false }
    }
}
