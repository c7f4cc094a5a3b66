import Foundation

/// File names are at most 255 bytes (NAME_MAX) on the file systems notes live on. Names that
/// Notula derives from a note's — "NAME.2.md" and "NAME.md.trashinfo" in the Trash, "NAME
/// (restored).md" — shorten the NAME part, on a character boundary, so they still fit.
enum FileNameLength {
    static let maximumBytes = 255

    /// `base` + `tail`, with `base` cut short when the whole would pass `maximumBytes` (a
    /// move's destination may allow fewer).
    static func fit(_ base: String, _ tail: String, maximumBytes: Int = Self.maximumBytes) -> String {
        let room = maximumBytes - tail.utf8.count
        guard base.utf8.count > room else { return base + tail }
        var cut = ""
        for character in base {
            if cut.utf8.count + String(character).utf8.count > room { break }
            cut.append(character)
        }
        return cut + tail
    }
}
