import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches one folder with inotify and reports which entries changed, on the main queue.
/// A folder (not a file) is watched because atomic saves — ours and other programs' —
/// replace a file by renaming a new one over it, which a watch on the old inode would miss.
public final class FolderWatcher {
    public struct Change: Equatable {
        public enum Kind: Equatable { case written, created, removed, movedIn, movedOut, attributes }
        public let name: String
        public let kind: Kind

        public init(name: String, kind: Kind) {
            self.name = name
            self.kind = kind
        }
    }

    public let folder: URL
    private let fd: Int32
    private let source: DispatchSourceRead
    /// Called on the main queue with the changes of one read, in order.
    private let onChanges: ([Change]) -> Void

    public init(folder: URL, onChanges: @escaping ([Change]) -> Void) throws {
        self.folder = folder
        self.onChanges = onChanges
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw StorageError(.listFolder, path: folder.path) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(fd, folder.path, mask) >= 0 else {
            let code = errno
            close(fd)
            throw StorageError(.listFolder, path: folder.path, code: code)
        }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue.global(qos: .utility))
        let descriptor = fd
        source.setEventHandler { [weak self] in
            let changes = FolderWatcher.drain(descriptor)
            guard !changes.isEmpty else { return }
            DispatchQueue.main.async { self?.onChanges(changes) }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    deinit { source.cancel() }

    /// Reads every pending inotify event.
    private static func drain(_ fd: Int32) -> [Change] {
        var changes: [Change] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
                let name = String(decoding: nameBytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                offset += headerSize + length
                if let kind = kind(of: mask) { changes.append(Change(name: name, kind: kind)) }
            }
        }
        return changes
    }

    private static func kind(of mask: UInt32) -> Change.Kind? {
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
