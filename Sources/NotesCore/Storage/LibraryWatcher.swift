import Foundation

/// Watches the whole library — its top folder and every notebook — and reports changed
/// entries by their path in the library ("note.md", "Work/note.md"), on the main queue.
/// inotify watches one folder at a time: the owner, which lists the notebooks anyway (off the
/// main queue) when a folder comes or goes, hands the list in with `watch(notebooks:)`.
public final class LibraryWatcher {
    public let library: URL
    private let onChanges: ([FolderWatcher.Change]) -> Void
    private var watchers: [String: FolderWatcher] = [:]

    public init(library: URL, onChanges: @escaping ([FolderWatcher.Change]) -> Void) throws {
        self.library = library
        self.onChanges = onChanges
        try watch("")
    }

    /// Watches these notebooks (paths in the library) and stops watching any other.
    public func watch(notebooks: [String]) {
        let current = Set(notebooks)
        for path in watchers.keys where !path.isEmpty && !current.contains(path) { watchers[path] = nil }
        for path in current where watchers[path] == nil { try? watch(path) }
    }

    private func watch(_ notebook: String) throws {
        let folder = notebook.isEmpty ? library : library.appendingPathComponent(notebook)
        watchers[notebook] = try FolderWatcher(folder: folder) { [weak self] changes in
            guard let self else { return }
            let inLibrary = changes.map { change in
                FolderWatcher.Change(name: notebook.isEmpty || change.name.isEmpty ? change.name : "\(notebook)/\(change.name)", kind: change.kind)
            }
            self.onChanges(inLibrary)
        }
    }

    /// The notebooks being watched (tests).
    public var watchedNotebooks: [String] { watchers.keys.filter { !$0.isEmpty }.sorted() }
}
