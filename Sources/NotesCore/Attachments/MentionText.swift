import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A note's bytes made ready for `NameMention`: ASCII letters folded to lower case once (a
/// byte loop, then `memchr` and `memcmp`, about 20 times faster than lowercasing the text as a `String`),
/// and the text lowercased as `AttachmentNames.key` does only when a non-ASCII name is
/// looked for in a text that has non-ASCII bytes. Bytes that are not UTF-8 are looked
/// through too.
final class MentionText {
    private let folded: [UInt8]
    let hasNonASCII: Bool
    private let data: Data

    init(_ data: Data) {
        self.data = data
        var folded = [UInt8](data)
        var nonASCII = false
        for index in folded.indices {
            let byte = folded[index]
            if byte >= 0x41 && byte <= 0x5A { folded[index] = byte | 0x20 } else if byte >= 0x80 { nonASCII = true }
        }
        self.folded = folded
        hasNonASCII = nonASCII
    }

    /// The whole text lowercased (`AttachmentNames.key`), made the first time it is asked for.
    private(set) lazy var lowered: String = AttachmentNames.key(String(decoding: data, as: UTF8.self))

    /// Whether the folded bytes hold `needle` (lowercase ASCII bytes).
    func containsFolded(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= folded.count else { return needle.isEmpty }
        // memchr for the first byte, memcmp for the rest (Glibc's module leaves memmem out).
        return folded.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                guard let base = haystack.baseAddress, let first = pattern.first else { return false }
                var offset = 0
                let last = haystack.count - pattern.count
                while offset <= last {
                    guard let found = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
                    let at = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + at, pattern.baseAddress!, pattern.count) == 0 { return true }
                    offset = at + 1
                }
                return false
            }
        }
    }
}
