import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a note's text may write a file's name, for a cheap look before its links are parsed:
/// plain, as Notula encodes it (`AttachmentLink.encode`), and with every byte outside ASCII
/// letters, digits and "-._~" percent-encoded (other tools' way) — all compared without case.
struct NameMention: Sendable {
    let spellings: Set<String>
    /// The spellings that are ASCII (every spelling of an ASCII name), as bytes: looked for
    /// in the text's ASCII-folded bytes, which is fast enough to run over every note of a
    /// large library when a note moves.
    private let asciiSpellings: [[UInt8]]
    /// The others, looked for in the text lowercased as `AttachmentNames.key` does.
    private let otherSpellings: [String]

    init(_ name: String) {
        // Encoded before lowercasing: "Ü" is "%C3%9C", "ü" another escape.
        let composed = name.precomposedStringWithCanonicalMapping
        let encoded = composed.addingPercentEncoding(withAllowedCharacters: Self.asciiAlphanumerics) ?? composed
        spellings = [AttachmentNames.key(name), AttachmentLink.encode(composed).lowercased(), encoded.lowercased()]
        asciiSpellings = spellings.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
        otherSpellings = spellings.filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
    }

    /// Whether the note's text mentions the name.
    func isMentioned(in text: MentionText) -> Bool {
        asciiSpellings.contains { text.containsFolded($0) }
            || (!otherSpellings.isEmpty && text.hasNonASCII && otherSpellings.contains { text.lowered.contains($0) })
    }

    private static let asciiAlphanumerics = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
