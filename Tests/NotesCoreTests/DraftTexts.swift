import Foundation
import Glibc
@testable import NotesCore

/// The texts of every recovery draft, for the torture's checks, read again only where the
/// drafts changed. A long run keeps hundreds of drafts (a note deleted elsewhere keeps its
/// words in one), and decoding them all at every step made a run grow with the square of its
/// steps (100,000 steps did not end in 37 minutes).
///
/// A file's identity (`FileStamp`) says it is unchanged only once its last change is older
/// than a tick of the file system's clock (4 ms here): within a tick, another write can leave
/// the same times. Younger files and folders are read again at the next look.
final class DraftTexts {
    private typealias Stamp = DocumentTortureTests.FileStamp
    private let drafts: RecoveryDrafts
    private var known: [String: (stamp: Stamp?, text: String?)] = [:]
    /// The drafts folder at the last look, when settled: no entry came, went or was replaced.
    private var folderStamp: Stamp?

    init(_ drafts: RecoveryDrafts) {
        self.drafts = drafts
    }

    /// Whether a draft holds `text` now; a text not found is looked for again in every draft
    /// read afresh, so nothing this keeps can hide a draft.
    func contains(_ text: String) -> Bool {
        refresh()
        return known.values.contains { $0.text == text } || drafts.all().contains { $0.text == text }
    }

    private func refresh() {
        var info = stat()
        let folder = drafts.folder.path
        guard lstat(folder, &info) == 0 else {
            known = [:]
            folderStamp = nil
            return
        }
        let stamp = Stamp(info)
        guard stamp != folderStamp else { return }
        folderStamp = Self.isSettled(info) ? stamp : nil
        var now: [String: (stamp: Stamp?, text: String?)] = [:]
        for entry in (try? FolderEntries.read(folder)) ?? [] where entry.name.hasSuffix(".json") {
            let path = folder + "/" + entry.name
            guard lstat(path, &info) == 0 else { continue }
            let stamp = Stamp(info)
            if let seen = known[entry.name], seen.stamp == stamp {
                now[entry.name] = seen
            } else {
                let text = RegularFile.contents(of: URL(fileURLWithPath: path)).flatMap { drafts.decode($0)?.text }
                now[entry.name] = (Self.isSettled(info) ? stamp : nil, text)
            }
        }
        known = now
    }

    /// Last changed more than 20 ms ago (the file system's clock ticks every 4 ms).
    private static func isSettled(_ info: stat) -> Bool {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let now = Int64(clock.tv_sec) * 1_000_000_000 + Int64(clock.tv_nsec)
        let changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        return now - changed > 20_000_000
    }
}
