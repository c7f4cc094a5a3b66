import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The user's personal word list for one language (`~/.config/enchant/LANG.dic`, one word per
/// line, shared with every Enchant application), read and appended by Notula itself rather
/// than by Enchant: Enchant opens it with a blocking `fopen` and reads it whole under its lock,
/// so a FIFO there froze the window forever and `/dev/zero` or a 200 MB list for seconds to
/// minutes. Here it is opened non-blocking, only as a regular file, read up to a cap, and each
/// failure is a sentence the user can act on.
public struct PersonalWordList: Sendable {
    /// A list this long holds ~400,000 words; anything larger is not a word list.
    public static let maximumBytes = 4 << 20
    /// Enchant's own limit for a line (`BUFSIZ`); longer lines are not words.
    static let maximumWordBytes = 8192

    /// The list's file.
    public let url: URL

    public init(folder: URL, language: String) {
        url = folder.appendingPathComponent("\(language).dic")
    }

    /// Why the list cannot be used, as the user reads it in Preferences and error dialogs.
    public struct Problem: Error, Equatable, CustomStringConvertible, POSIXCodeConvertible {
        public let path: String
        public let reason: String
        public let posixCode: Int32?

        public var description: String {
            // TRANSLATORS: %1$s is the personal word list's path; %2$s why it cannot be used.
            tr("Your personal word list “%1$s” cannot be used: %2$s", PathBytes.display(path), reason)
        }
    }

    /// The words in the list; none when it does not exist yet.
    public func words() throws -> [String] {
        let data: Data
        do {
            // A dotfile manager may link it: links are followed, to a regular file only.
            data = try RegularFile.read(url, followLinks: true, maximumBytes: Self.maximumBytes).data
        } catch let error as StorageError where error.code == ENOENT {
            return []
        } catch let error as StorageError {
            throw problem(error)
        }
        return Self.words(in: data)
    }

    /// Enchant's format: a line per word, a byte-order mark allowed first, `#` comments, lines
    /// that are not UTF-8 or too long skipped.
    static func words(in data: Data) -> [String] {
        var words: [String] = []
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) where line.count <= maximumWordBytes {
            guard let text = String(validating: line, as: UTF8.self), !text.contains("\0") else { continue }
            let word = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !word.isEmpty, !word.hasPrefix("#") { words.append(word) }
        }
        return words
    }

    /// Adds `word` at the end of the list (what every Enchant application does, under the same
    /// `flock`), creating the list and its folder when there is none.
    public func append(_ word: String) throws {
        do {
            try FileSystem.makeFolders(url.deletingLastPathComponent().path)
        } catch let error as StorageError {
            throw problem(error)
        }
        // Non-blocking: a FIFO or a device must not hold the caller up (refused just below).
        // Read and write: its last byte is looked at before the word is appended.
        let fd = open(url.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            // A folder (EISDIR) or anything else that is no file: said as such.
            var info = stat()
            if stat(url.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
                throw problem(RegularFile.notRegular(url.path, mode: info.st_mode))
            }
            throw problem(StorageError(.write, path: url.path))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw problem(StorageError(.write, path: url.path)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw problem(RegularFile.notRegular(url.path, mode: info.st_mode)) }
        // Another Enchant application writing now holds it for a moment; never wait long.
        var locked = false
        for _ in 0..<50 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { locked = true; break }
            usleep(10_000)
        }
        guard locked else {
            throw Problem(path: url.path, reason: tr("Another program is writing to it. Try again in a moment."), posixCode: EWOULDBLOCK)
        }
        defer { flock(fd, LOCK_UN) }
        // The word starts a line of its own, whatever the last writer left.
        var line = Array(word.utf8) + [UInt8(ascii: "\n")]
        var last: UInt8 = 0
        if fstat(fd, &info) == 0, info.st_size > 0, pread(fd, &last, 1, info.st_size - 1) == 1, last != UInt8(ascii: "\n") {
            line.insert(UInt8(ascii: "\n"), at: 0)
        }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw problem(StorageError(.write, path: url.path, code: written < 0 ? errno : ENOSPC)) }
    }

    private func problem(_ error: StorageError) -> Problem {
        let reason: String
        if let notAFile = error.notAFileReason {
            reason = notAFile
        } else if error.code == EFBIG {
            // TRANSLATORS: why a personal word list is not read; %d is the limit in megabytes.
            reason = tr("it is larger than %d MB, so it is not read.", Self.maximumBytes >> 20)
        } else {
            reason = String(cString: strerror(error.code)) + "."
        }
        return Problem(path: error.path, reason: reason, posixCode: error.code)
    }
}
