import Synchronization

/// The index the indexing queue works on: set there; read there, and by `close` and `begin`
/// to stop it.
final class IndexSlot: Sendable {
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
    private let indexed = Mutex(0)
    /// The generation whose start put `index` here (the queue).
    var indexGeneration: Int {
        get { indexed.withLock { $0 } }
        set { indexed.withLock { $0 = newValue } }
    }
    /// The generation whose texts are being indexed, if any.
    private let texts = Mutex<Int?>(nil)

    /// Marks a run of text indexing for `generation` as under way; false when one is already.
    func startTexts(generation: Int) -> Bool {
        texts.withLock { running in
            guard running != generation else { return false }
            running = generation
            return true
        }
    }

    func isRunningTexts(generation: Int) -> Bool { texts.withLock { $0 == generation } }

    func endTexts(generation: Int) {
        texts.withLock { if $0 == generation { $0 = nil } }
    }

    /// A start's watch of the library folder against its first read of it (issue #42): the
    /// start waits a moment for the main thread to install the watch, and when it could not
    /// wait longer, the read went ahead unwatched and must be done again once it is watched.
    private let startWatch = Mutex<(generation: Int, watched: Bool, readUnwatched: Bool)>((0, false, false))

    /// The main thread now watches the folder of `generation`'s start; true when that start
    /// read the folder before (read it again: what changed in between went unheard).
    func watchInstalled(generation: Int) -> Bool {
        startWatch.withLock { state in
            if state.generation != generation { state = (generation, true, false) }
            state.watched = true
            return state.readUnwatched
        }
    }

    /// `generation`'s start reads the folder without waiting longer for its watch.
    func readsUnwatched(generation: Int) {
        startWatch.withLock { state in
            if state.generation != generation { state = (generation, false, false) }
            if !state.watched { state.readUnwatched = true }
        }
    }
}
