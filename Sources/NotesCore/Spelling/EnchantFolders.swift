import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where Enchant would keep the user's files, and the private folder Notula points Enchant
/// at instead (`ENCHANT_CONFIG_DIR`), so that Enchant itself never opens the personal word
/// lists (`PersonalWordList` reads them safely). Dictionaries the user installed in the
/// Enchant folder (`hunspell/`, `nuspell/`) stay visible: the private folder links to them.
enum EnchantFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var usersFolder: URL?

    /// `$XDG_RUNTIME_DIR/notula-enchant` (the user's own, in memory), else the cache.
    static let privateFolder: URL = {
        let xdg = XDGDirectories()
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
           FileSystem.isFolder(runtime) {
            return URL(fileURLWithPath: runtime).appendingPathComponent("notula-enchant", isDirectory: true)
        }
        return xdg.appCache.appendingPathComponent("enchant", isDirectory: true)
    }()

    /// The user's Enchant folder (`ENCHANT_CONFIG_DIR`, else `~/.config/enchant`), taken
    /// from the environment before Enchant is pointed at the private folder. Called before
    /// each broker's first Enchant call; a later `ENCHANT_CONFIG_DIR` (tests set their own)
    /// is the user's again.
    static func takeOver() -> URL {
        lock.withLock {
            let privatePath = privateFolder.path
            let value = getenv("ENCHANT_CONFIG_DIR").map { String(cString: $0) }
            if let value, value != privatePath, value.hasPrefix("/") {
                usersFolder = URL(fileURLWithPath: value, isDirectory: true)
            } else if usersFolder == nil {
                usersFolder = XDGDirectories().configHome.appendingPathComponent("enchant", isDirectory: true)
            }
            if value != privatePath { setenv("ENCHANT_CONFIG_DIR", privatePath, 1) }
            return usersFolder!
        }
    }

    /// Makes the private folder ready for `language`: its word lists empty regular files
    /// (Enchant creates and reads them), and links to the user's dictionary folders.
    static func prepare(for language: String, usersFolder: URL) {
        let folder = privateFolder.path
        guard (try? FileSystem.makeFolders(folder)) != nil else { return }
        for suffix in ["dic", "exc"] {
            let path = folder + "/\(language).\(suffix)"
            var info = stat()
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG || info.st_size != 0 {
                unlink(path)
            }
        }
        for name in ["hunspell", "nuspell", "myspell", "aspell"] {
            let own = usersFolder.appendingPathComponent(name).path
            let link = folder + "/" + name
            let current = readLink(link)
            var info = stat()
            // Followed: a dotfile manager may link the folder.
            guard stat(own, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                if current != nil { unlink(link) }
                continue
            }
            if current != own {
                unlink(link)
                symlink(own, link)
            }
        }
    }
}
