import Foundation
import XCTest

/// A real FAT or exFAT file system in an image file, mounted for a test: by the kernel's driver
/// where it has one (mount -o loop), else by the FUSE driver Debian packages (fusefat for FAT,
/// exfat-fuse on a loop device for exFAT). Needs root and the Makefile's TEST_DEPS (dosfstools,
/// exfatprogs, fusefat, exfat-fuse); a test that cannot get one is skipped, with the reason.
/// fusefat is slow (about 0.2 s a file in a folder of 300 files, growing with the folder):
/// tests on FAT keep their libraries small.
public final class FATDisk {
    public enum Kind: String, Sendable {
        case fat = "FAT"
        case exfat = "exFAT"
    }

    public let kind: Kind
    /// The mounted file system's top folder.
    public let url: URL
    /// Which driver mounted it ("kernel vfat", "fusefat", "exfat-fuse"), for the test's report.
    public private(set) var driver = ""
    /// Whether its driver replaces a file by renaming onto it, as POSIX says. fusefat 0.3
    /// (Debian 13) answers EEXIST: Notula refuses to move a library there
    /// (`MoveError.cannotReplaceFiles`), and the tests of moves to FAT check that refusal.
    public private(set) var replacesFiles = true
    private let image: URL
    private var loopDevice: String?

    public init(_ kind: Kind, megabytes: Int = 64) throws {
        self.kind = kind
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("notula-\(kind.rawValue.lowercased())-\(UUID().uuidString)")
        image = base.appendingPathExtension("img")
        url = base
        guard getuid() == 0 else { throw cannotRun("mounting a \(kind.rawValue) file system needs root (as in CI)") }
        let format = kind == .fat ? "/usr/sbin/mkfs.vfat" : "/usr/sbin/mkfs.exfat"
        guard FileManager.default.isExecutableFile(atPath: format) else {
            throw cannotRun("\(format) is missing: make deps-test installs \(kind == .fat ? "dosfstools" : "exfatprogs")")
        }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: image.path, contents: nil),
              truncate(image.path, off_t(megabytes) * 1024 * 1024) == 0,
              // FAT32: fusefat (0.1a) overwrites files with directory entries on FAT16 once a folder grows.
              kind == .fat ? Self.run(format, "-F", "32", image.path) : Self.run(format, image.path) else {
            cleanUp()
            throw cannotRun("could not make a \(kind.rawValue) image with \(format)")
        }
        if Self.run("/bin/mount", "-t", kind == .fat ? "vfat" : "exfat", "-o", "loop", image.path, url.path) {
            driver = "kernel \(kind == .fat ? "vfat" : "exfat")"
        } else if kind == .fat, Self.run("/usr/bin/fusefat", "-o", "rw+", image.path, url.path) {
            driver = "fusefat"
        } else if kind == .exfat, let device = Self.output("/sbin/losetup", "-f", "--show", image.path) {
            loopDevice = device
            if Self.run("/sbin/mount.exfat-fuse", device, url.path) { driver = "exfat-fuse" }
        }
        guard !driver.isEmpty, Self.isMounted(url.path) else {
            cleanUp()
            throw cannotRun("the kernel has no \(kind.rawValue) driver here and its FUSE driver could not mount the image (make deps-test)")
        }
        let first = url.appendingPathComponent("replace-1").path, second = url.appendingPathComponent("replace-2").path
        if FileManager.default.createFile(atPath: first, contents: nil), FileManager.default.createFile(atPath: second, contents: nil) {
            replacesFiles = rename(first, second) == 0
        }
        unlink(first)
        unlink(second)
    }

    deinit { cleanUp() }

    private func cleanUp() {
        if Self.isMounted(url.path) && !Self.run("/bin/umount", url.path) { _ = Self.run("/bin/umount", "-l", url.path) }
        if let loopDevice { _ = Self.run("/sbin/losetup", "-d", loopDevice) }
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: image)
    }

    /// Whether a file system is mounted at `path`: it is on another device than its parent.
    /// (Reading /proc/self/mounts with Foundation stops at its first 4 KB: with many mounts
    /// the line came later, a mount was taken for a failure and left behind.)
    private static func isMounted(_ path: String) -> Bool {
        var here = stat(), parent = stat()
        return stat(path, &here) == 0 && stat((path as NSString).deletingLastPathComponent, &parent) == 0 && here.st_dev != parent.st_dev
    }

    /// Runs a program to its end, its output dropped. Spawned and waited for here: Foundation's
    /// Process waits for a pipe it hands the child, which a FUSE driver's daemon keeps open.
    @discardableResult
    private static func run(_ arguments: String...) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: arguments[0]) else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 && (status >> 8) & 0xFF == 0  // exited, with 0
    }

    /// What a short-lived program printed, or nil when it failed.
    private static func output(_ arguments: String...) -> String? {
        guard FileManager.default.isExecutableFile(atPath: arguments[0]) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
