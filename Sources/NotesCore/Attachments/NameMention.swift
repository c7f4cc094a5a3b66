import Foundation

/// How a note's text may write a file's name, for a cheap look before its links are parsed:
/// plain, as Notula encodes it (`AttachmentLink.encode`), and with every byte outside ASCII
/// letters, digits and "-._~" percent-encoded (other tools' way) — all compared without case.
struct NameMention: Sendable {
    let spellings: Set<String>

    init(_ name: String) {
        // Encoded before lowercasing: "Ü" is "%C3%9C", "ü" another escape.
        let composed = name.precomposedStringWithCanonicalMapping
        let encoded = composed.addingPercentEncoding(withAllowedCharacters: Self.asciiAlphanumerics) ?? composed
        spellings = [AttachmentNames.key(name), AttachmentLink.encode(composed).lowercased(), encoded.lowercased()]
    }

    /// Whether `lowered` (a text as `AttachmentNames.key` gives it) mentions the name.
    func isMentioned(in lowered: String) -> Bool {
        spellings.contains { lowered.contains($0) }
    }

    /// A note's text ready for `isMentioned(in:)` (bytes that are not UTF-8 are looked through too).
    static func lowered(_ data: Data) -> String {
        AttachmentNames.key(String(decoding: data, as: UTF8.self))
    }

    private static let asciiAlphanumerics = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
