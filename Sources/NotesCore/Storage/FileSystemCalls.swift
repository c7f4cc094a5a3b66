import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Every system call NotesCore makes on a path takes Notula's path strings, in which names that
// are not UTF-8 travel as escapes (`PathBytes`). These overloads take `String` paths, so in
// this module they are chosen over Glibc's (which take C strings, reached from a `String` by an
// implicit conversion that would send the escapes' UTF-8 instead of the name's bytes):
// `lstat(path, &info)` anywhere in NotesCore reaches the file the listing found, whatever its
// name. Each gives `PathBytes.withCString` the path and calls the C function under it
// (`stat` and `lstat` through `fstatat`: in Swift the names also mean the struct).

@discardableResult
func open(_ path: String, _ flags: Int32) -> Int32 {
    PathBytes.withCString(path) { Glibc.open($0, flags) }
}

@discardableResult
func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    PathBytes.withCString(path) { Glibc.open($0, flags, mode) }
}

@discardableResult
func openat(_ folder: Int32, _ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    PathBytes.withCString(path) { Glibc.openat(folder, $0, flags, mode) }
}

@discardableResult
func stat(_ path: String, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    PathBytes.withCString(path) { fstatat(AT_FDCWD, $0, info, 0) }
}

@discardableResult
func lstat(_ path: String, _ info: UnsafeMutablePointer<stat>) -> Int32 {
    PathBytes.withCString(path) { fstatat(AT_FDCWD, $0, info, AT_SYMLINK_NOFOLLOW) }
}

@discardableResult
func fstatat(_ folder: Int32, _ path: String, _ info: UnsafeMutablePointer<stat>, _ flags: Int32) -> Int32 {
    PathBytes.withCString(path) { Glibc.fstatat(folder, $0, info, flags) }
}

@discardableResult
func access(_ path: String, _ mode: Int32) -> Int32 {
    PathBytes.withCString(path) { Glibc.access($0, mode) }
}

@discardableResult
func faccessat(_ folder: Int32, _ path: String, _ mode: Int32, _ flags: Int32) -> Int32 {
    PathBytes.withCString(path) { Glibc.faccessat(folder, $0, mode, flags) }
}

@discardableResult
func rename(_ old: String, _ new: String) -> Int32 {
    PathBytes.withCString(old) { old in PathBytes.withCString(new) { Glibc.rename(old, $0) } }
}

@discardableResult
func renameat(_ oldFolder: Int32, _ old: String, _ newFolder: Int32, _ new: String) -> Int32 {
    PathBytes.withCString(old) { old in PathBytes.withCString(new) { Glibc.renameat(oldFolder, old, newFolder, $0) } }
}

@discardableResult
func link(_ old: String, _ new: String) -> Int32 {
    PathBytes.withCString(old) { old in PathBytes.withCString(new) { Glibc.link(old, $0) } }
}

@discardableResult
func linkat(_ oldFolder: Int32, _ old: String, _ newFolder: Int32, _ new: String, _ flags: Int32) -> Int32 {
    PathBytes.withCString(old) { old in PathBytes.withCString(new) { Glibc.linkat(oldFolder, old, newFolder, $0, flags) } }
}

@discardableResult
func symlink(_ target: String, _ path: String) -> Int32 {
    PathBytes.withCString(target) { target in PathBytes.withCString(path) { Glibc.symlink(target, $0) } }
}

@discardableResult
func unlink(_ path: String) -> Int32 {
    PathBytes.withCString(path) { Glibc.unlink($0) }
}

@discardableResult
func unlinkat(_ folder: Int32, _ path: String, _ flags: Int32) -> Int32 {
    PathBytes.withCString(path) { Glibc.unlinkat(folder, $0, flags) }
}

@discardableResult
func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
    PathBytes.withCString(path) { Glibc.mkdir($0, mode) }
}

@discardableResult
func mkfifo(_ path: String, _ mode: mode_t) -> Int32 {
    PathBytes.withCString(path) { Glibc.mkfifo($0, mode) }
}

@discardableResult
func rmdir(_ path: String) -> Int32 {
    PathBytes.withCString(path) { Glibc.rmdir($0) }
}

@discardableResult
func chmod(_ path: String, _ mode: mode_t) -> Int32 {
    PathBytes.withCString(path) { Glibc.chmod($0, mode) }
}

@discardableResult
func statvfs(_ path: String, _ info: UnsafeMutablePointer<statvfs>) -> Int32 {
    PathBytes.withCString(path) { statvfs($0, info) }  // Glibc's: a C string
}

func opendir(_ path: String) -> OpaquePointer? {
    PathBytes.withCString(path) { Glibc.opendir($0) }
}

@discardableResult
func utimensat(_ folder: Int32, _ path: String, _ times: UnsafePointer<timespec>?, _ flags: Int32) -> Int32 {
    PathBytes.withCString(path) { Glibc.utimensat(folder, $0, times, flags) }
}

@discardableResult
func inotify_add_watch(_ instance: Int32, _ path: String, _ mask: UInt32) -> Int32 {
    PathBytes.withCString(path) { Glibc.inotify_add_watch(instance, $0, mask) }
}

/// rename() that fails with EEXIST when `new` exists: renameat2(RENAME_NOREPLACE), or where the
/// file system does not have it (FUSE file systems without rename2: EINVAL) a look first —
/// which finds a name that differs only in case where case is not told apart.
func renameWithoutReplacing(_ old: String, _ new: String) -> Int32 {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") {
        let renameNoReplace: UInt32 = 1  // RENAME_NOREPLACE (linux/fs.h; not in Swift's Glibc module)
        let result = PathBytes.withCString(old) { old in
            PathBytes.withCString(new) { unsafeBitCast(symbol, to: RenameAt2.self)(AT_FDCWD, old, AT_FDCWD, $0, renameNoReplace) }
        }
        if result == 0 { return 0 }
        guard errno == EINVAL || errno == ENOSYS else { return -1 }
    }
    var info = stat()
    if lstat(new, &info) == 0 { errno = EEXIST; return -1 }
    return rename(old, new)
}

/// Swaps what `first` and `second` name, atomically: renameat2(RENAME_EXCHANGE). -1 with
/// EINVAL (or ENOSYS) where the file system cannot (FAT, exFAT, FUSE without rename2) — and
/// where it says it can but does not (`RenameExchangeCheck`).
func renameExchanging(_ first: String, _ second: String) -> Int32 {
    guard RenameExchangeCheck.exchanges(inFolderOf: second) else {
        errno = EINVAL
        return -1
    }
    return renameExchangingUnchecked(first, second)
}

/// renameat2(RENAME_EXCHANGE) as the file system does it.
func renameExchangingUnchecked(_ first: String, _ second: String) -> Int32 {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
        errno = ENOSYS
        return -1
    }
    let renameExchange: UInt32 = 2  // RENAME_EXCHANGE (linux/fs.h; not in Swift's Glibc module)
    return PathBytes.withCString(first) { first in
        PathBytes.withCString(second) { unsafeBitCast(symbol, to: RenameAt2.self)(AT_FDCWD, first, AT_FDCWD, $0, renameExchange) }
    }
}

@discardableResult
func pathconf(_ path: String, _ name: Int32) -> Int {
    PathBytes.withCString(path) { Glibc.pathconf($0, name) }
}

/// The target of the symbolic link at `path` (its bytes as a path string), or nil.
func readLink(_ path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = PathBytes.withCString(path) { path in
        buffer.withUnsafeMutableBufferPointer { readlink(path, UnsafeMutableRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), $0.count - 1) }
    }
    return count < 0 ? nil : PathBytes.string(buffer.prefix(count))
}

/// The canonical path of `path` (symbolic links resolved), as a path string, or nil.
func realPath(_ path: String) -> String? {
    guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return PathBytes.string(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
}
