import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Whether renameat2(RENAME_EXCHANGE) really swaps two files on a file system, tried once per
/// file system with two files of its own. exfat-fuse 1.4 (Debian 13) answers 0 and does a
/// plain rename: the file that should have come out under the other name is gone. A checked
/// replace that trusted it would delete another program's version it meant to put back; on
/// such a file system it uses its look-then-rename fallback instead, as on FAT.
enum RenameExchangeCheck {
    private static let known = Mutex<[UInt64: Bool]>([:])

    static func exchanges(inFolderOf path: String) -> Bool {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        var info = stat()
        guard stat(folder, &info) == 0 else { return false }
        let device = UInt64(info.st_dev)
        if let answer = known.withLock({ $0[device] }) { return answer }
        guard let answer = tryExchange(in: folder) else { return false }  // not known yet: the fallback
        known.withLock { $0[device] = answer }
        return answer
    }

    /// Two files swapped and looked at: each must be under the other's name. Nil when the
    /// files cannot be made (a read-only folder: nothing will be replaced there anyway).
    /// Named as temporaries, so a crash here leaves nothing `removeLeftovers` keeps.
    private static func tryExchange(in folder: String) -> Bool? {
        let base = folder + "/.exchange" + AtomicFileWriter.temporaryMarker + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let first = base + "-a", second = base + "-b"
        defer {
            unlink(first)
            unlink(second)
        }
        var firstInfo = stat(), secondInfo = stat()
        for name in [first, second] {
            let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return nil }
            close(fd)
        }
        guard lstat(first, &firstInfo) == 0, lstat(second, &secondInfo) == 0 else { return nil }
        guard renameExchangingUnchecked(first, second) == 0 else { return false }
        var nowFirst = stat(), nowSecond = stat()
        return lstat(first, &nowFirst) == 0 && lstat(second, &nowSecond) == 0
            && nowFirst.st_ino == secondInfo.st_ino && nowSecond.st_ino == firstInfo.st_ino
    }
}
