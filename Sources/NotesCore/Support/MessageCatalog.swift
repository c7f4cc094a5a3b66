import Foundation

/// One compiled gettext catalog (`notula.mo`, made by msgfmt from po/LANG.po), read by Notula
/// itself rather than through glibc's `dgettext`: glibc translates only under a locale that is
/// generated on the machine, and since 2.41 not under C.UTF-8 either, so `LANGUAGE=de` with
/// Debian 13's default C.UTF-8 would be English. The file is untrusted input: every offset is
/// checked, a damaged catalog is no catalog (English), never a crash.
struct MessageCatalog: Sendable {
    /// msgid (with `context\u{4}` in front when it has one) → its forms (one unless plural).
    private let messages: [String: [String]]
    let pluralRule: PluralRule

    /// Catalogs are a few hundred KB at most; a bigger file is not one of ours.
    static let largestFile = 16 << 20

    init?(contentsOf url: URL) {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe), data.count <= Self.largestFile else { return nil }
        self.init(data: data)
    }

    init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 20 else { return nil }
        let magic = Self.word(bytes, at: 0, bigEndian: false)
        let bigEndian: Bool
        switch magic {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: return nil
        }
        func word(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 4 <= bytes.count else { return nil }
            return Int(Self.word(bytes, at: offset, bigEndian: bigEndian))
        }
        /// The string a table's entry points at (length, offset), NULs inside kept.
        func string(table: Int, index: Int) -> String? {
            guard let length = word(table + index * 8), let offset = word(table + index * 8 + 4),
                  offset + length <= bytes.count else { return nil }
            return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        }
        guard let revision = word(4), revision >> 16 <= 1, let count = word(8), let originals = word(12),
              let translations = word(16), count <= bytes.count / 16 else { return nil }
        var messages: [String: [String]] = [:]
        messages.reserveCapacity(count)
        var header = ""
        for index in 0..<count {
            guard let original = string(table: originals, index: index), let translation = string(table: translations, index: index)
            else { return nil }
            // A plural entry's msgid is "singular\0plural"; it is looked up by the singular.
            let key = String(original.prefix(while: { $0 != "\0" }))
            if key.isEmpty {
                header = translation
                continue
            }
            messages[key] = translation.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        }
        self.messages = messages
        let pluralLine = header.split(separator: "\n").first { $0.hasPrefix("Plural-Forms:") }
        pluralRule = pluralLine.flatMap { PluralRule(header: String($0)) } ?? .english
    }

    private static func word(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32 {
        let value = bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }  // little-endian
        return bigEndian ? value.byteSwapped : value
    }

    /// The translation of `msgid`, nil when the catalog has none (or an empty one, as gettext).
    func translation(of msgid: String) -> String? {
        guard let translated = messages[msgid]?.first, !translated.isEmpty else { return nil }
        return translated
    }

    /// The form of the plural entry `singular` that `count` takes, nil when there is none.
    func translation(of singular: String, count: UInt64) -> String? {
        guard let forms = messages[singular] else { return nil }
        let form = pluralRule.form(for: count)
        guard forms.indices.contains(form), !forms[form].isEmpty else { return nil }
        return forms[form]
    }

    /// The catalog of the first of `languages` that has one in `folder` (`LANG/LC_MESSAGES/
    /// DOMAIN.mo`), trying each name as gettext does: `de_DE.UTF-8@euro` → `de_DE@euro`,
    /// `de_DE`, `de@euro`, `de`.
    static func find(domain: String, in folder: String, languages: [String]) -> MessageCatalog? {
        for language in languages {
            for name in candidates(for: language) {
                let file = URL(fileURLWithPath: folder).appendingPathComponent("\(name)/LC_MESSAGES/\(domain).mo")
                if let catalog = MessageCatalog(contentsOf: file) { return catalog }
            }
        }
        return nil
    }

    static func candidates(for language: String) -> [String] {
        guard !language.contains("/") else { return [] }  // a name, never a path out of the folder
        let parts = language.split(separator: "@", maxSplits: 1)
        guard let base = parts.first?.split(separator: ".").first, !base.isEmpty else { return [] }
        let modifier = parts.count > 1 ? "@" + parts[1] : ""
        let territoryFree = base.split(separator: "_").first.map(String.init) ?? String(base)
        var names: [String] = []
        for name in [base + modifier, String(base), territoryFree + modifier, territoryFree] where !names.contains(name) {
            names.append(String(name))
        }
        return names
    }
}
