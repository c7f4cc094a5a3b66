import Foundation
import Glibc
@testable import NotesCore
import TestSupport

/// Searches a live library index over and over on a thread of its own while a second thread
/// interrupts the searches under way at random instants, as typing in the search field does
/// (`DocumentTortureTests`). A search for a word no note holds must find nothing: an interrupt
/// that reached the index's writer used to leave every search showing every note.
///
/// The test's own reads of the listing go through the search's connection too
/// (`LibraryIndex.summaries`); `withoutSearches` keeps them out of an interrupt's way (an
/// interrupt stops every statement running on that connection).
///
/// `@unchecked Sendable`: every mutable field is read and written under `condition`.
final class TortureSearchTraffic: @unchecked Sendable {
    /// Words no note of the torture ever holds: one through the word index, a short token, a
    /// trigram phrase (it is not inside one term).
    static let absentWords = ["qzxjvk", "zq", "q#zx!j"]
    /// Words the torture types or writes (found or not, depending on the moment).
    static let presentWords = ["apples", "note", "café", "elsewhere", "version", "pasted", "ünïcode"]

    private enum Phase { case idle, searching, listing }

    private let condition = NSCondition()
    private let index: LibraryIndex
    private let seed: UInt64
    private var phase = Phase.idle
    private var stopped = false
    private var running = 0
    private var counts = (searches: 0, interrupted: 0, interrupts: 0)
    private var failures: [String] = []

    init(index: LibraryIndex, seed: UInt64) {
        self.index = index
        self.seed = seed
    }

    func start() {
        running = 2
        for body in [searching, interrupting] {
            let thread = Thread { [self] in
                body()
                condition.withLock {
                    running -= 1
                    condition.broadcast()
                }
            }
            thread.start()
        }
    }

    /// Stops both threads and waits for them.
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
            while running > 0 { condition.wait() }
        }
    }

    /// What went wrong since the last call (each said once).
    func takeFailures() -> [String] {
        condition.withLock {
            defer { failures.removeAll() }
            return failures
        }
    }

    var summary: String {
        condition.withLock { "\(counts.searches) searches, \(counts.interrupts) interrupts sent, \(counts.interrupted) searches interrupted" }
    }

    /// Runs `body` while no search runs (and none starts).
    func withoutSearches<T>(_ body: () -> T) -> T {
        condition.withLock {
            while phase != .idle { condition.wait() }
            phase = .listing
        }
        defer {
            condition.withLock {
                phase = .idle
                condition.broadcast()
            }
        }
        return body()
    }

    private func searching() {
        var turn = 0
        while true {
            let go = condition.withLock { () -> Bool in
                while phase == .listing && !stopped { condition.wait() }
                if stopped { return false }
                phase = .searching
                return true
            }
            guard go else { return }
            let absent = turn % 2 == 0
            let words = absent ? Self.absentWords : Self.presentWords
            let word = words[(turn / 2) % words.count]
            var failure: String?
            var interrupted = false
            do {
                // As the window's search asks (`SearchController`): the rows of the notes found.
                let found = try index.matchingRows(word)
                if found == nil {
                    failure = "searching \(word.debugDescription) gave every note (nil)"
                } else if absent, let found, found.count > 0 {
                    failure = "searching \(word.debugDescription), which no note holds, found \(found.count) notes"
                }
            } catch is LibraryIndex.SearchInterrupted {
                interrupted = true
            } catch {
                failure = "searching \(word.debugDescription) threw \(error)"
            }
            condition.withLock {
                counts.searches += 1
                if interrupted { counts.interrupted += 1 }
                if let failure { failures.append(failure) }
                phase = .idle
                condition.broadcast()
            }
            turn += 1
            usleep(1500)  // the cores are the torture's first
        }
    }

    private func interrupting() {
        var random = SeededRandom(seed: seed ^ 0x5EA2C4)
        while true {
            usleep(UInt32(100 + random.next(upTo: 1500)))
            let go = condition.withLock { () -> Bool in
                if stopped { return false }
                if phase == .searching {
                    index.interruptSearch()
                    counts.interrupts += 1
                }
                return true
            }
            guard go else { return }
        }
    }
}
