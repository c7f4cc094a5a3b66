import Foundation
import XCTest

/// A real, tiny tmpfs for full-disk and read-only tests (needs root, as in CI; skipped otherwise).
public final class SmallDisk {
    public let url: URL

    public init(kilobytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("notula-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard run("/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", url.path) else {
            try? FileManager.default.removeItem(at: url)
            throw cannotRun("cannot mount a tmpfs here (needs root)")
        }
    }

    public func remountReadOnly() throws {
        guard run("/bin/mount", "-o", "remount,ro", url.path) else { throw cannotRun("cannot remount read-only") }
    }

    public func remountWritable() throws {
        guard run("/bin/mount", "-o", "remount,rw", url.path) else { throw cannotRun("cannot remount read-write") }
    }

    deinit {
        _ = run("/bin/umount", "-l", url.path)
        try? FileManager.default.removeItem(at: url)
    }

    private func run(_ arguments: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
