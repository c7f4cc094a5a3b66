import Synchronization

/// Refreshes asked for (the watcher, Notula's own saves) and not run yet. Whoever comes
/// first runs them: the block each one queues, or a long reconcile between its batches
/// (issue #29: a note a sync client drops during a first indexing is listed within a second,
/// not when the reconcile ends).
final class PendingRefreshes: Sendable {
    struct Request: Sendable {
        let ids: [String]
        /// More ids, kept apart so that the main thread does not join 200,000 of them
        /// (`LiveLibrary.releaseChanges`); read with `ids`.
        var alsoIDs: [String] = []
        var allIDs: [String] { alsoIDs.isEmpty ? ids : ids + alsoIDs }
        /// Notes Notula moved itself (old id → new id): their rows follow them (`LibraryIndex.refresh(_:moved:)`).
        var moved: [String: String] = [:]
        /// The live library's generation when it was asked for (its folder).
        let generation: Int
        let done: (@MainActor @Sendable (LibraryIndex.Changes) -> Void)?
    }

    private let requests = Mutex<[Request]>([])

    func add(_ request: Request) {
        requests.withLock { $0.append(request) }
    }

    /// Whether refreshes of `generation` wait.
    func areWaiting(for generation: Int) -> Bool {
        requests.withLock { $0.contains { $0.generation == generation } }
    }

    /// The requests of `generation`, taken; those of older generations (another folder's) are
    /// dropped, newer ones (a folder not listed yet) stay.
    func take(for generation: Int) -> [Request] {
        requests.withLock { requests in
            let taken = requests.filter { $0.generation == generation }
            requests.removeAll { $0.generation <= generation }
            return taken
        }
    }

    /// Requests that could not run now, to run first next time.
    func putBack(_ taken: [Request]) {
        requests.withLock { $0.insert(contentsOf: taken, at: 0) }
    }
}
