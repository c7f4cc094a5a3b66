import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches one folder and reports which entries changed, on the main queue. A folder (not a
/// file) is watched because atomic saves — ours and other programs' — replace a file by
/// renaming a new one over it, which a watch on the old inode would miss. Every watcher is a
/// watch on the process's one inotify instance (`InotifyHub`).
public final class FolderWatcher {
    public struct Change: Equatable, Sendable {
        /// `overflowed`, with an empty name: the kernel dropped events (its queue was full), so
        /// anything in the folder may have changed unseen — look at what matters again.
        public enum Kind: Equatable, Sendable { case written, created, removed, movedIn, movedOut, attributes, overflowed }
        public let name: String
        public let kind: Kind

        public init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    public let folder: URL
    private let hub: InotifyHub
    private let subscription: InotifyHub.Subscription

    /// `onChanges` is called on the main queue with the changes of one read, in order; the
    /// folder itself going away is a `.removed` change with an empty name, lost events (once
    /// per overflow burst) an `.overflowed` change with an empty name.
    public init(folder: URL, onChanges: @escaping @MainActor ([Change]) -> Void) throws {
        self.folder = folder
        hub = InotifyHub.shared
        subscription = try hub.add(path: folder.path) { events in
            let changes = events.compactMap { event in FolderWatcher.kind(of: event.mask).map { Change(name: event.name, kind: $0) } }
            if !changes.isEmpty { onChanges(changes) }
        }
    }

    deinit { hub.remove(subscription) }

    /// False once the folder was deleted or moved away (its watch ended).
    public var isActive: Bool { hub.isActive(subscription) }

    /// How many folders the process watches (tests, benchmarks).
    public static var watchCount: Int { InotifyHub.shared.watchCount }

    private static func kind(of mask: UInt32) -> Change.Kind? {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return .overflowed }
        if mask & UInt32(IN_CLOSE_WRITE) != 0 { return .written }
        if mask & UInt32(IN_MOVED_TO) != 0 { return .movedIn }
        if mask & UInt32(IN_CREATE) != 0 { return .created }
        if mask & UInt32(IN_DELETE) != 0 { return .removed }
        if mask & UInt32(IN_MOVED_FROM) != 0 { return .movedOut }
        if mask & UInt32(IN_ATTRIB) != 0 { return .attributes }
        if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { return .removed }  // the folder itself
        return nil
    }
}
