import Dispatch
import Foundation
import Synchronization

/// The library as it is now: the one owner of the library folder's index, its watcher and the
/// queue they work on. The window observes it (`onEvent`) and asks it for a small set of named
/// transitions:
///
/// - `open` — list the folder from its index at once, then reconcile it with the disk and
///   watch it; `switchTo` — the same for another folder (after a move of all notes, a folder
///   located again): the old list and index stay until the new folder's listing arrives, and
///   anything the old folder's work hands back after that is dropped; `reopen` — the folder
///   itself went away or came back.
/// - `rescan` — read every folder again (notebooks came or went elsewhere, a watch is missing);
///   `refresh` — these files changed (the watcher, Notula's own saves, Trash, notebook moves).
/// - `stopWatching` (a move of all notes is under way) and `close` (quit: the index stops
///   and closes, its WAL folded back).
///
/// Each `open`/`switchTo`/`reopen` starts a new generation: work of an older one that comes
/// back later is dropped, so a late batch of the old folder never reaches the new list. Index
/// work runs on `indexing`, a low-priority serial queue; the index a queued block uses is the
/// one current on that queue (`slot`), never one read on the main thread earlier.
///
/// A start lists rows first (what the list shows), then indexes the notes' full texts in
/// short steps, each a block of its own on `indexing` (so whatever was queued meanwhile runs
/// between them), saying how far it got (`indexing`, then `indexed`). Refreshes never wait
/// behind a reconcile: they wait in `refreshes`, and a reconcile runs them between its
/// batches (issue #29).
@MainActor
public final class LiveLibrary {
    public enum Event {
        /// Every note there is, to show instead of what is listed (the start's listing of the
        /// index; the index started over and read the library again).
        case listed([NoteSummary])
        /// Notes added, changed or removed.
        case changed(LibraryIndex.Changes)
        /// The notebooks, after a reconcile.
        case notebooks([String])
        /// The index equals the folder now (a reconcile ended): the list is complete; the
        /// notes' full texts may still be coming (`indexing`).
        case reconciled
        /// Full texts are being indexed: search finds notes among the `indexed` ones only.
        case indexing(LibraryIndex.TextProgress)
        /// Every note's full text is indexed: search is complete.
        case indexed(LibraryIndex.TextProgress)
        /// The folder cannot be listed (a synced folder not plugged in, a local one that could
        /// not be made, no permission): nothing is listed.
        case unavailable(Error)
        /// Watching stopped covering every folder (a sentence for the user).
        case degraded(String)
    }

    public private(set) var library: NoteLibrary
    /// The local library is made again when missing; a synced one never is.
    public private(set) var createsFolder: Bool
    /// The index of `library` once it is listed (search reads it on a connection of its own).
    public private(set) var index: LibraryIndex?
    public var onEvent: ((Event) -> Void)?
    /// Where indexes are kept (`$XDG_CACHE_HOME/notula`); nil keeps them in memory (tests).
    public let indexFolder: URL?
    public let indexing = LowPriorityQueue(label: "notula.index")
    /// The index the `indexing` queue works on (that queue only).
    let slot = IndexSlot()
    /// Refreshes not run yet (the queued block or a reconcile between batches runs them).
    private let refreshes = PendingRefreshes()
    var watcher: LibraryWatcher?
    private(set) var generation = 0
    private var hasStarted = false
    private var listedWaiters: [@MainActor (LibraryIndex?) -> Void] = []
    private(set) var isClosed = false
    /// Whether the folder is being watched (tests).
    public var isWatching: Bool { watcher != nil }
    /// How often an unwatched folder is read again (tests make it short).
    public var rescanInterval: TimeInterval = 10
    /// The note open in the editor (its id). The watcher's changes of its file — its own
    /// autosaves, every 5 s while the user types on — are indexed once it is left or the user
    /// stopped typing for `editPause` (`noteTyped`), not at every save: a 1 MB note costs FTS5
    /// ~20 ms a time, and each changed row makes the window search again. The list shows its
    /// title and date from the editor meanwhile.
    public var editedNote: String? {
        didSet {
            guard editedNote != oldValue, let left = oldValue, heldBack.remove(left) != nil else { return }
            refresh([left])
        }
    }
    /// How long the user must not type before the edited note's saves are indexed: as long as
    /// the autosave waits after typing, so a pause's save is indexed as it lands.
    public var editPause: TimeInterval = 1
    /// The edited note, when a change of its file waits for the pause.
    var heldBack: Set<String> = []
    /// While Notula's own actions on many notes run (`holdChanges`): the notes the watcher
    /// heard of meanwhile, read with the action's own in one refresh.
    var heldForBatch: [String] = []  // an array: a set of 200,000 names grew by rehashing them all (100 ms)
    var batchesUnderWay = 0
    var pauseTimer: DispatchWorkItem?
    var lastTyped = DispatchTime(uptimeNanoseconds: 0)

    public init(folder: URL, createsFolder: Bool = true, indexFolder: URL?) {
        library = NoteLibrary(folder: folder)
        self.createsFolder = createsFolder
        self.indexFolder = indexFolder
    }

    /// `body` gets the index as soon as the library is listed (now, if it is), or nil when
    /// the folder cannot be listed: the desktop's search asks before a start has listed it.
    public func whenListed(_ body: @escaping @MainActor (LibraryIndex?) -> Void) {
        if let index { return body(index) }
        if isClosed { return body(nil) }
        listedWaiters.append(body)
    }

    private func deliverIndex(_ index: LibraryIndex?) {
        let waiting = listedWaiters
        listedWaiters = []
        for body in waiting { body(index) }
    }

    // MARK: Transitions

    /// Lists the library from its index at once, then brings the index in line with the folder
    /// (reading only new and changed files; a first run fills the list as it goes) and watches
    /// it. `then` gets the notebooks once the list is complete, or why the folder cannot be listed.
    public func open(then done: (@MainActor (Result<[String], Error>) -> Void)? = nil) {
        begin(library, createsFolder: createsFolder, then: done)
    }

    /// Shows another library folder; the list and index of this one stay until its listing arrives.
    public func switchTo(_ folder: URL, createsFolder: Bool, then done: (@MainActor (Result<[String], Error>) -> Void)? = nil) {
        begin(NoteLibrary(folder: folder), createsFolder: createsFolder, then: done)
    }

    /// The folder itself went away or came back: list it from the start (the local library is
    /// made again, a synced one is said to be unavailable).
    public func reopen() {
        begin(library, createsFolder: createsFolder, then: nil)
    }

    /// Reads every folder again (notebooks changed elsewhere), keeping what is listed; when
    /// the folder itself cannot be listed any more, starts over (`reopen`).
    public func rescan(then done: (@MainActor () -> Void)? = nil) {
        let generation = self.generation
        let slot = self.slot
        indexing.async { [weak self] in
            guard let self, let index = slot.index else { return }
            let result = Result { try self.reconcile(index, generation: generation) }
            DispatchQueue.main.async { [weak self] in
                guard let self, self.generation == generation else { return }
                switch result {
                case .success(let notebooks):
                    self.reconciled(notebooks)
                    self.scheduleTexts(generation: generation)
                    done?()
                case .failure(let error):
                    if !(error is LibraryIndex.Stopped) { self.reopen() }  // stopped: another folder is coming
                }
            }
        }
    }

    /// These notes (ids: paths in the library) changed on disk, or may have: the index reads
    /// what changed of them, then the window hears of it. `then` gets what changed.
    /// A reconcile under way runs it between two of its batches.
    /// `moved`: notes Notula moved itself (old id → new id), whose rows follow them.
    public func refresh(_ ids: [String], moved: [String: String] = [:], then done: (@MainActor (LibraryIndex.Changes) -> Void)? = nil) {
        refresh(ids, alsoIDs: [], moved: moved, then: done)
    }

    func refresh(_ ids: [String], alsoIDs: [String], moved: [String: String], then done: (@MainActor (LibraryIndex.Changes) -> Void)?) {
        refreshes.add(PendingRefreshes.Request(ids: ids, alsoIDs: alsoIDs, moved: moved, generation: generation, done: done))
        indexing.async { [weak self] in self?.runRefreshes(betweenBatches: false) }
    }

    /// Runs the refreshes waiting for the index on the queue now (the `indexing` queue):
    /// `betweenBatches` of a reconcile, a refresh that fails is left for later.
    nonisolated private func runRefreshes(betweenBatches: Bool) {
        guard let index = slot.index else { return }
        let generation = slot.indexGeneration
        var failed: [PendingRefreshes.Request] = []
        for request in refreshes.take(for: generation) {
            let changes: LibraryIndex.Changes
            if betweenBatches {
                guard let found = index.refreshBetweenBatches(request.allIDs) else {
                    failed.append(request)
                    continue
                }
                changes = found
            } else {
                changes = index.refresh(request.allIDs, moved: request.moved)
                // The index started over and read the library again, or moved notes' texts wait: texts follow.
                if changes.everyNote != nil || !request.moved.isEmpty { scheduleTexts(generation: generation) }
            }
            DispatchQueue.main.async { [weak self] in
                // A bulk action's request (100,000 ids and moves, what its `done` holds) is
                // freed off the main thread: 64 ms there at 100,000 notes.
                defer { if request.ids.count + request.alsoIDs.count >= OffMainRelease.worthFrom { OffMainRelease.later(request) } }
                guard let self, self.generation == generation else { return }
                self.deliver(changes, generation: generation)
                request.done?(changes)
            }
        }
        if !failed.isEmpty {
            refreshes.putBack(failed)
            indexing.async { [weak self] in self?.runRefreshes(betweenBatches: false) }
        }
    }

    /// Reconciles `index` (the `indexing` queue), handing the window few, big batches and
    /// running the refreshes that wait between them.
    nonisolated private func reconcile(_ index: LibraryIndex, generation: Int, beforeFirstBatch: () -> Void = {}) throws -> [String] {
        var batches = ChangeBatches()
        let deliver: @Sendable (LibraryIndex.Changes) -> Void = { changes in
            DispatchQueue.main.async { [weak self] in self?.deliver(changes, generation: generation) }
        }
        var isFirst = true
        let notebooks = try index.reconcile { batch in
            if isFirst { beforeFirstBatch() }
            isFirst = false
            let refreshing = refreshes.areWaiting(for: generation)
            if let handed = batches.add(batch, now: refreshing) { deliver(handed) }
            if refreshing { runRefreshes(betweenBatches: true) }
        }
        if let rest = batches.flush() { deliver(rest) }
        return notebooks
    }

    /// Stops reporting the folder's changes (while all notes move out of it); the next
    /// `open` or `switchTo` watches again.
    public func stopWatching() {
        watcher = nil
    }

    /// At quit: a reconcile under way stops at its next note, and the index closes (its WAL
    /// folded back and removed). Waits at most `timeout` for the queue; nothing is delivered
    /// any more.
    public func close(timeout: TimeInterval = 2) {
        guard !isClosed else { return }
        isClosed = true
        deliverIndex(nil)
        generation += 1
        watcher = nil
        let slot = self.slot
        slot.generation = generation  // a start still queued is passed over
        slot.index?.stop()
        let closed = DispatchSemaphore(value: 0)
        indexing.async {
            slot.index?.close()
            slot.index = nil
            closed.signal()
        }
        _ = closed.wait(timeout: .now() + timeout)
    }

    // MARK: Starting

    private func begin(_ library: NoteLibrary, createsFolder: Bool, then done: (@MainActor (Result<[String], Error>) -> Void)?) {
        guard !isClosed else { return }
        generation += 1
        let generation = self.generation
        watcher = nil  // the new folder is watched before its reconcile reads it
        self.library = library
        self.createsFolder = createsFolder
        let leftoverAge = hasStarted ? AtomicFileWriter.abandonedAfter : 0  // at launch no save of ours is under way
        hasStarted = true
        let slot = self.slot
        let indexFolder = self.indexFolder
        slot.index?.stop()  // the old folder's reconcile, if any, gives way
        slot.generation = generation
        indexing.async {
            // Asked for again meanwhile (a second switch): this one is passed over.
            guard slot.generation == generation else { return }
            let index: LibraryIndex
            do {
                try library.prepare(createIfMissing: createsFolder, leftoversOlderThan: leftoverAge)
                index = try LibraryIndex(library: library, cacheFolder: indexFolder)
            } catch {
                // Nothing is listed of this folder: the old one's index (stopped) goes too.
                slot.index?.close()
                slot.index = nil
                DispatchQueue.main.async { [weak self] in self?.failed(error, generation: generation, then: done) }
                return
            }
            let previous = slot.index
            slot.index = index
            slot.indexGeneration = generation
            // The folder itself is watched before the reconcile reads it: a note dropped while it
            // lists 100,000 names (seconds with a cold page cache) is not missed by both. Its
            // notebooks are watched once listed. (Bounded: `close` may be waiting on this queue;
            // a main thread held longer gets the folder read again once it watches.)
            let watching = DispatchSemaphore(value: 0)
            DispatchQueue.main.async { [weak self] in
                if let self, self.generation == generation {
                    self.watch()
                    self.watcher?.watch(notebooks: [])
                    if slot.watchInstalled(generation: generation) { self.rescan() }
                }
                watching.signal()
            }
            if watching.wait(timeout: .now() + 1) == .timedOut { slot.readsUnwatched(generation: generation) }
            // The index is listed on a second core while this one lists the folder; the window
            // shows it before any change the folder brings (the main queue keeps their order,
            // and a change already in the listing is applied again harmlessly).
            let listed = DispatchSemaphore(value: 0)
            DispatchQueue.global(qos: .userInitiated).async {
                let notes = index.summaries()
                let notebooks = library.notebooks()
                DispatchQueue.main.async { [weak self] in
                    guard let self, self.generation == generation else { return }
                    self.index = index
                    self.onEvent?(.listed(notes))
                    if notes.count >= OffMainRelease.worthFrom { OffMainRelease.later(notes) }
                    self.deliverIndex(index)
                    // The window searches the new index now: the old folder's can close.
                    self.indexing.async { previous?.close() }
                    // Watched from now: what changes while the index catches up is refreshed
                    // between its batches (a reconcile of 100,000 new notes takes seconds).
                    self.watch()  // watching already, unless that wait timed out
                    self.watcher?.watch(notebooks: notebooks)
                }
                listed.signal()
            }
            var isListed = false
            let reconcile = { () -> Result<[String], Error> in
                Result {
                    try self.reconcile(index, generation: generation) {
                        if !isListed { listed.wait() }
                        isListed = true
                    }
                }
            }
            var result = reconcile()
            if !isListed { listed.wait() }
            // The index could not be listed (the window shows nothing of it): every note again.
            if case .success = result, index.couldNotBeListed { result = reconcile() }
            DispatchQueue.main.async { [weak self] in
                guard let self, self.generation == generation else { return }
                switch result {
                case .success(let notebooks):
                    self.reconciled(notebooks)
                    done?(.success(notebooks))
                    self.indexing.async {
                        let changes = index.completeSearchTables()  // an index from an older Notula
                        MemoryTrim.returnFreedMemory()
                        DispatchQueue.main.async { [weak self] in self?.deliver(changes, generation: generation) }
                    }
                    self.scheduleTexts(generation: generation)
                case .failure(let error):
                    if error is LibraryIndex.Stopped { return }
                    self.failed(error, generation: generation, then: done)
                }
            }
        }
    }

    private func failed(_ error: Error, generation: Int, then done: (@MainActor (Result<[String], Error>) -> Void)?) {
        guard self.generation == generation else { return }
        deliverIndex(nil)
        onEvent?(.unavailable(error))
        done?(.failure(error))
    }

    private func reconciled(_ notebooks: [String]) {
        onEvent?(.notebooks(notebooks))
        // A notebook first seen by this reconcile (made inside a new notebook before that one's
        // watch could hear it) was read before it was watched: a note removed or added in it
        // in between went unheard. Read again, now that it is watched.
        let unheard = watcher?.watch(notebooks: notebooks) ?? []
        onEvent?(.reconciled)
        if !unheard.isEmpty { rescan() }
    }

    /// What the index found changed, for the window: every note after the index started over.
    func deliver(_ changes: LibraryIndex.Changes, generation: Int) {
        guard self.generation == generation else { return }
        if let every = changes.everyNote {
            onEvent?(.listed(every))
        } else if !changes.isEmpty {
            onEvent?(.changed(changes))
        }
        // The window keeps what it shows of them; the rest goes off the main thread.
        if changes.upserted.count + changes.removed.count + (changes.everyNote?.count ?? 0) >= OffMainRelease.worthFrom {
            OffMainRelease.later(changes)
        }
    }
}
