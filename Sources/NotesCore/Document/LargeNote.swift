import Foundation

/// Notes too large for the editor to lay out without freezing the window. GTK lays out a
/// paragraph as one unit: a line of a few hundred thousand characters costs seconds to
/// minutes of CPU on the main thread, and a text of tens of megabytes seconds to load. Such a
/// note opens in a safe mode: its beginning, read-only, with every line cut short, and a
/// banner offering to open it anyway (thresholds measured: docs/BENCHMARKS.md, "Large notes").
public enum LargeNote: Sendable {
    /// Above this many bytes the note opens in the safe mode.
    public static let maximumBytes = 4 * 1024 * 1024
    /// A line longer than this many bytes makes the note open in the safe mode.
    public static let maximumLineBytes = 20_000
    /// Above this many bytes a file is not read whole unless the user asks (Open Anyway,
    /// read-only): its beginning is read and shown. A 300 MB file read whole froze the
    /// window for 5 s and kept 437 MB.
    public static let maximumReadBytes = 64 * 1024 * 1024
    /// How much of such a file is read.
    static let readPrefixBytes = 256 * 1024
    /// How much of the note the safe mode shows.
    static let previewBytes = 64 * 1024
    /// How much of each line the safe mode shows.
    static let previewLineBytes = 2_000

    /// A note's file as a document reads it: whole, or when it is larger than
    /// `maximumReadBytes` (and `whole` is false) its first lines only, up to the last line
    /// break of its first `readPrefixBytes`. `fileSize` is the whole file's; `identity`'s hash
    /// is that of what was read.
    public static func read(_ url: URL, whole: Bool) throws -> (data: Data, identity: FileIdentity, fileSize: Int64) {
        if !whole, case .found(let identity) = FileIdentity.lookUp(url), identity.size > Int64(maximumReadBytes) {
            let (prefix, info) = try RegularFile.prefix(url, count: readPrefixBytes)
            // Cut after a line break, so no character is split (a note of one huge line: as is).
            let end = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? prefix.count
            let data = Data(prefix[..<end])
            return (data, FileIdentity(info, hash: ContentHash.of(data)), Int64(info.st_size))
        }
        let read = try FileIdentity.read(url)
        return (read.data, read.identity, Int64(read.data.count))
    }

    /// Why `data` (of a file of `fileSize` bytes) should open in the safe mode, or nil.
    public static func problem(_ data: Data, fileSize: Int64? = nil) -> String? {
        if let fileSize, fileSize > Int64(data.count) {
            let size = ByteCountFormatter.string(fromByteCount: fileSize, countStyle: .file)
            // TRANSLATORS: %s is the file's size, such as “300 MB”.
            return tr("This file is very large (%s). Notula read only its beginning and shows it read-only; Open Anyway reads it all, read-only, which can take a while.", size)
        }
        if data.count > maximumBytes {
            let size = ByteCountFormatter.string(fromByteCount: Int64(data.count), countStyle: .file)
            // TRANSLATORS: %s is the note's size, such as “12.3 MB”.
            return tr("This note is large (%s). Notula shows its beginning read-only so the window stays responsive.", size)
        }
        let longest = longestLine(data)
        if longest > maximumLineBytes {
            // TRANSLATORS: %s is the number of characters, written with digit grouping (“25,000”).
            return trn("This note has a line of %s character, too long to edit comfortably. Notula shows its beginning read-only so the window stays responsive.",
                       "This note has a line of %s characters, too long to edit comfortably. Notula shows its beginning read-only so the window stays responsive.",
                       longest, longest.formatted(.number.locale(Localization.locale)))
        }
        return nil
    }

    /// Whether a note of `size` bytes, whose first `prefix` bytes the list has read, may be too
    /// large to open unasked (the list never opens such a note by itself at start).
    public static func mightBeLarge(size: Int64, prefix: [UInt8]) -> Bool {
        if size > Int64(maximumBytes) { return true }
        guard size > Int64(maximumLineBytes) else { return false }
        var run = 0
        for byte in prefix {
            run = byte == 0x0A ? 0 : run + 1
            if run >= min(maximumLineBytes, prefix.count - 1) { return true }
        }
        return false
    }

    /// The longest line in bytes.
    static func longestLine(_ data: Data) -> Int {
        data.withUnsafeBytes { raw -> Int in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return 0 }
            var longest = 0, start = 0
            while start < raw.count {
                let rest = raw.count - start
                if let hit = memchr(base + start, 0x0A, rest) {
                    let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    longest = max(longest, end - start)
                    start = end + 1
                } else {
                    longest = max(longest, rest)
                    break
                }
            }
            return longest
        }
    }

    /// What the safe mode shows: the beginning of the text, each line cut to a length the
    /// editor lays out at once ("…" marks a cut).
    public static func preview(of text: String) -> String {
        var result = ""
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            result += String(decoding: line.prefix(previewLineBytes), as: UTF8.self)
            result += line.count > previewLineBytes ? " …\n" : "\n"
            if result.utf8.count > previewBytes {
                result += "…\n"
                break
            }
        }
        return result
    }
}
