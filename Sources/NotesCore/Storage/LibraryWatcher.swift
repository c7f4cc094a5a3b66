import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches the whole library — its top folder and every notebook — and reports changed
/// entries by their path in the library ("note.md", "Work/note.md"), on the main queue.
/// inotify watches one folder at a time: the owner, which lists the notebooks anyway (off the
/// main queue) when a folder comes or goes, hands the list in with `watch(notebooks:)`.
///
/// When a folder cannot be watched (the user's `max_user_watches` is used up, or no inotify
/// instance can be had), the watcher says so once (`onDegraded`) and asks its owner to read
/// the library again every `rescanInterval` seconds instead (`onRescan`): never silently stale.
/// When the kernel drops events (its queue overflowed in a burst of changes), the library is
/// read again once per burst (`onRescan` too), however many notebooks are watched.
/// Main-actor isolated: it reports to the window.
@MainActor
public final class LibraryWatcher {
    public let library: URL
    private let onChanges: ([FolderWatcher.Change]) -> Void
    private var watchers: [String: FolderWatcher] = [:]
    /// Called every `rescanInterval` while some folder is not watched.
    public var onRescan: (() -> Void)?
    /// Called once, with a sentence for the user, when watching stops covering everything.
    public var onDegraded: ((String) -> Void)?
    public var rescanInterval: TimeInterval = 10
    /// Folders that could not be watched, and why (errno).
    public private(set) var unwatched: [String: Int32] = [:]
    private var rescanTimer: DispatchSourceTimer?
    private var saidDegraded = false
    /// A rescan for lost events is on its way (every notebook's watcher hears of an overflow).
    private var rescanQueued = false

    /// Watches nothing until `watch(notebooks:)` (set the callbacks first).
    public init(library: URL, onChanges: @escaping ([FolderWatcher.Change]) -> Void) {
        self.library = library
        self.onChanges = onChanges
    }

    isolated deinit { rescanTimer?.cancel() }

    /// Watches these notebooks (paths in the library) and stops watching any other. Folders
    /// whose watch ended (deleted, then made again) are watched anew. Returns the notebooks
    /// watched from now that were not before (what changed in them until now went unheard).
    @discardableResult
    public func watch(notebooks: [String]) -> [String] {
        let current = Set(notebooks)
        for path in watchers.keys where !path.isEmpty && !current.contains(path) { watchers[path] = nil }
        for path in unwatched.keys where !path.isEmpty && !current.contains(path) { unwatched[path] = nil }
        var added: [String] = []
        for path in [""] + notebooks.sorted() where watchers[path]?.isActive != true {
            do {
                try watch(path)
                if !path.isEmpty { added.append(path) }
            } catch {
                unwatched[path] = (error as? StorageError)?.code ?? EINVAL
            }
        }
        updateFallback()
        return added
    }

    private func watch(_ notebook: String) throws {
        let folder = notebook.isEmpty ? library : library.appendingPathComponent(notebook)
        watchers[notebook] = nil
        watchers[notebook] = try FolderWatcher(folder: folder) { [weak self] changes in
            guard let self else { return }
            if changes.contains(where: { $0.kind == .overflowed }) { self.rescanForLostEvents() }
            // Paths in the library. A notebook's own folder moved or deleted is that notebook
            // (its name), never "" — the library folder itself, which makes the window open the
            // whole library again (it did so for every notebook renamed, and lost the choice).
            let inLibrary = changes.filter { $0.kind != .overflowed }.map { change in
                FolderWatcher.Change(name: notebook.isEmpty ? change.name : change.name.isEmpty ? notebook : "\(notebook)/\(change.name)",
                                     kind: change.kind)
            }
            if !inLibrary.isEmpty { self.onChanges(inLibrary) }
        }
        unwatched[notebook] = nil
    }

    /// Events were lost: the whole library is read again, once for all its watchers.
    private func rescanForLostEvents() {
        guard !rescanQueued else { return }
        rescanQueued = true
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.rescanQueued = false
            self.onRescan?()
        }
    }

    /// Rescans while anything is unwatched, and says why once.
    private func updateFallback() {
        let limited = unwatched.values.contains { $0 == ENOSPC || $0 == EMFILE || $0 == ENFILE || $0 == ENOMEM }
        guard limited else {
            rescanTimer?.cancel()
            rescanTimer = nil
            return
        }
        if !saidDegraded {
            saidDegraded = true
            let count = unwatched.count
            let seconds = Int(rescanInterval)
            // Two sentences, each with its own count.
            onDegraded?(trn("This computer’s limit of watched folders is reached (fs.inotify.max_user_watches), so %d folder of your notes cannot be watched.",
                            "This computer’s limit of watched folders is reached (fs.inotify.max_user_watches), so %d folders of your notes cannot be watched.", count)
                + " " + trn("Notula looks for changes there every %d second instead.", "Notula looks for changes there every %d seconds instead.", seconds))
        }
        guard rescanTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + rescanInterval, repeating: rescanInterval)
        timer.setEventHandler { [weak self] in self?.onRescan?() }
        timer.resume()
        rescanTimer = timer
    }

    /// The notebooks being watched (tests).
    public var watchedNotebooks: [String] { watchers.keys.filter { !$0.isEmpty }.sorted() }
}
