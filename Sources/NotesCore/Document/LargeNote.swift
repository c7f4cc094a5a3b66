import Foundation

/// Notes too large for the editor to lay out without freezing the window. GTK lays out a
/// paragraph as one unit: a line of a few hundred thousand characters costs seconds to
/// minutes of CPU on the main thread, and a text of tens of megabytes seconds to load. Such a
/// note opens in a safe mode: its beginning, read-only, with every line cut short, and a
/// banner offering to open it anyway (thresholds measured: docs/ARCHITECTURE.md).
public enum LargeNote: Sendable {
    /// Above this many bytes the note opens in the safe mode.
    public static let maximumBytes = 4 * 1024 * 1024
    /// A line longer than this many bytes makes the note open in the safe mode.
    public static let maximumLineBytes = 20_000
    /// How much of the note the safe mode shows.
    static let previewBytes = 64 * 1024
    /// How much of each line the safe mode shows.
    static let previewLineBytes = 2_000

    /// Why `data` should open in the safe mode, or nil.
    public static func problem(_ data: Data) -> String? {
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
