import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder only this user can enter (`mkdtemp`: mode 0700), in `$XDG_RUNTIME_DIR` when
/// there is one (the user's own, in memory), else the system's temporary folder: for files
/// another library writes by name (GTK's PDF export), which would otherwise be made with the
/// umask's mode in `/tmp`, readable by everyone while a note's text is in them.
public struct PrivateTemporaryFolder: Sendable {
    public let url: URL

    public init(prefix: String = "notula") throws {
        let environment = ProcessInfo.processInfo.environment
        var base = NSTemporaryDirectory()
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), FileSystem.isFolder(runtime) { base = runtime }
        var template = PathBytes.bytes((base as NSString).appendingPathComponent("\(prefix)-XXXXXX")) + [0]
        let made = template.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdtemp($0.baseAddress!) } }
        guard made != nil else { throw StorageError(.createFolder, path: PathBytes.string(template.dropLast())) }
        url = URL(fileURLWithPath: PathBytes.string(template.dropLast()), isDirectory: true)
    }

    /// Removes the folder and what is in it.
    public func remove() {
        try? FileSystem.removeTree(url.path)
    }
}
