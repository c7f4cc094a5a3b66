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
        /// The index equals the folder now (a reconcile ended): search is complete.
        case reconciled
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
    private let slot = IndexSlot()
    private var watcher: LibraryWatcher?
    private var generation = 0
    private var hasStarted = false
    private var isClosed = false
    /// Whether the folder is being watched (tests).
    public var isWatching: Bool { watcher != nil }
    /// How often an unwatched folder is read again (tests make it short).
    public var rescanInterval: TimeInterval = 10
    /// The note open in the editor (its id). The watcher's changes of its file — its own
    /// autosaves, every few seconds while the user types — are indexed once it is left or
    /// after `editPause` without a change, not at every save: a 1 MB note costs FTS5 ~20 ms a
    /// time, and each changed row makes the window search again. The list shows its title and
    /// date from the editor meanwhile.
    public var editedNote: String? {
        didSet {
            guard editedNote != oldValue, let left = oldValue, heldBack.remove(left) != nil else { return }
            refresh([left])
        }
    }
    /// How long the edited note's file must stay unchanged before it is indexed (tests shorten it).
    public var editPause: TimeInterval = 3
    /// The edited note, when a change of its file waits for the pause.
    private var heldBack: Set<String> = []
    private var pauseTimer: DispatchWorkItem?

    public init(folder: URL, createsFolder: Bool = true, indexFolder: URL?) {
        library = NoteLibrary(folder: folder)
        self.createsFolder = createsFolder
        self.indexFolder = indexFolder
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
        indexing.async {
            guard let index = slot.index else { return }
            let result = Result {
                try index.reconcile { batch in
                    DispatchQueue.main.async { [weak self] in self?.deliver(batch, generation: generation) }
                }
            }
            DispatchQueue.main.async { [weak self] in
                guard let self, self.generation == generation else { return }
                switch result {
                case .success(let notebooks):
                    self.reconciled(notebooks)
                    done?()
                case .failure(let error):
                    if !(error is LibraryIndex.Stopped) { self.reopen() }  // stopped: another folder is coming
                }
            }
        }
    }

    /// These notes (ids: paths in the library) changed on disk, or may have: the index reads
    /// what changed of them, then the window hears of it. `then` gets what changed.
    public func refresh(_ ids: [String], then done: (@MainActor (LibraryIndex.Changes) -> Void)? = nil) {
        let generation = self.generation
        let slot = self.slot
        indexing.async {
            guard let index = slot.index else { return }
            let changes = index.refresh(ids)
            DispatchQueue.main.async { [weak self] in
                guard let self, self.generation == generation else { return }
                self.deliver(changes, generation: generation)
                done?(changes)
            }
        }
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
        watcher = nil  // until the folder is listed; what changes meanwhile the reconcile finds
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
            // The index is listed on a second core while this one lists the folder; the window
            // shows it before any change the folder brings (the main queue keeps their order,
            // and a change already in the listing is applied again harmlessly).
            let listed = DispatchSemaphore(value: 0)
            DispatchQueue.global(qos: .userInitiated).async {
                let notes = index.summaries()
                DispatchQueue.main.async { [weak self] in
                    guard let self, self.generation == generation else { return }
                    self.index = index
                    self.onEvent?(.listed(notes))
                    // The window searches the new index now: the old folder's can close.
                    self.indexing.async { previous?.close() }
                    // Watched from now: what changes while the index catches up is refreshed after it.
                    self.watch()
                }
                listed.signal()
            }
            var isListed = false
            let reconcile = {
                Result {
                    try index.reconcile { batch in
                        if !isListed { listed.wait() }
                        isListed = true
                        DispatchQueue.main.async { [weak self] in self?.deliver(batch, generation: generation) }
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
                case .failure(let error):
                    if error is LibraryIndex.Stopped { return }
                    self.failed(error, generation: generation, then: done)
                }
            }
        }
    }

    private func failed(_ error: Error, generation: Int, then done: (@MainActor (Result<[String], Error>) -> Void)?) {
        guard self.generation == generation else { return }
        onEvent?(.unavailable(error))
        done?(.failure(error))
    }

    private func reconciled(_ notebooks: [String]) {
        onEvent?(.notebooks(notebooks))
        watcher?.watch(notebooks: notebooks)
        onEvent?(.reconciled)
    }

    /// What the index found changed, for the window: every note after the index started over.
    private func deliver(_ changes: LibraryIndex.Changes, generation: Int) {
        guard self.generation == generation else { return }
        if let every = changes.everyNote {
            onEvent?(.listed(every))
        } else if !changes.isEmpty {
            onEvent?(.changed(changes))
        }
    }

    // MARK: Watching

    private func watch() {
        guard watcher == nil, !isClosed else { return }
        let watcher = LibraryWatcher(library: library.folder) { [weak self] changes in self?.folderChanged(changes) }
        watcher.rescanInterval = rescanInterval
        // Out of watches: read the library again every few seconds, and say so once.
        watcher.onRescan = { [weak self] in self?.rescan() }
        watcher.onDegraded = { [weak self] message in self?.onEvent?(.degraded(message)) }
        self.watcher = watcher
    }

    /// Files other programs added, changed or removed. Sync clients' temporary and partial
    /// files are not note names, so they never show.
    private func folderChanged(_ changes: [FolderWatcher.Change]) {
        // The library folder itself was deleted or moved away.
        if changes.contains(where: { $0.name.isEmpty && $0.kind == .removed }) {
            return reopen()
        }
        // A notebook came, went or was renamed elsewhere: its notes moved without events of their own.
        if changes.contains(where: { change in
            let name = (change.name as NSString).lastPathComponent
            return NoteLibrary.isNotebookName(name) && !NoteLibrary.isNoteFileName(name) && (name as NSString).pathExtension.isEmpty
        }) {
            rescan()
        }
        var names = Set(changes.map(\.name).filter { NoteLibrary.isNoteFileName(($0 as NSString).lastPathComponent) })
        // The edited note saved again (written, or renamed into place) waits for a pause; gone, it is listed at once.
        if let edited = editedNote, !changes.contains(where: { $0.name == edited && [.removed, .movedOut].contains($0.kind) }),
           names.remove(edited) != nil {
            holdBack(edited)
        }
        guard !names.isEmpty else { return }
        // A conflict copy that comes or goes changes its note (yellow in the list).
        for name in names {
            let folder = (name as NSString).deletingLastPathComponent
            guard let copy = ConflictCopy.parse((name as NSString).lastPathComponent) else { continue }
            ConflictCopyScan.shared.forget(library.folder.appendingPathComponent(folder))
            names.insert(folder.isEmpty ? copy.originalName : "\(folder)/\(copy.originalName)")
        }
        refresh(Array(names))
    }

    /// The edited note's file changed: indexed `editPause` after its last change (or when it
    /// is left), once.
    private func holdBack(_ id: String) {
        heldBack.insert(id)
        pauseTimer?.cancel()
        let timer = DispatchWorkItem { [weak self] in
            guard let self, self.heldBack.remove(id) != nil else { return }
            self.refresh([id])
        }
        pauseTimer = timer
        DispatchQueue.main.asyncAfter(deadline: .now() + editPause, execute: timer)
    }
}

/// The index the indexing queue works on: set there; read there, and by `close` and `begin`
/// to stop it.
private final class IndexSlot: Sendable {
    private let current = Mutex<LibraryIndex?>(nil)
    private let latest = Mutex(0)
    var index: LibraryIndex? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
    /// The generation asked for last (set on the main actor, read on the queue).
    var generation: Int {
        get { latest.withLock { $0 } }
        set { latest.withLock { $0 = newValue } }
    }
}
