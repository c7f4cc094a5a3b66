import Foundation

/// Names for files in `attachments/`: the user's own name kept readable ("Report 2026.pdf"),
/// made safe for every file system a library may live on or be copied to (vfat, exFAT,
/// NTFS: none of `:?*<>|"\`, no control characters, no trailing dot or space, no DOS device
/// name like CON or LPT1 whatever its extension), NFC, at most 255 bytes with the extension
/// kept, and unique in its folder without regard to case ("name-2.png", "name-3.png"…).
public enum AttachmentNames {
    /// What a name becomes when nothing of it is left.
    static let fallback = "attachment"
    /// Longest extension kept as one (longer "extensions" are part of the name).
    static let longestExtension = 16

    /// `suggested` made safe (not yet unique).
    public static func safe(_ suggested: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in PathBytes.repaired(suggested).precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                continue  // control characters: dropped
            } else if "/\\:?*<>|\"".unicodeScalars.contains(scalar) {
                scalars.append("-")
            } else {
                scalars.append(scalar)
            }
        }
        var name = String(scalars)
        // Not hidden (listings skip dot names), no leading or trailing blanks, no trailing dot.
        while let first = name.first, first == "." || first == " " { name.removeFirst() }
        while let last = name.last, last == "." || last == " " || last.isWhitespace { name.removeLast() }
        if name.isEmpty { name = fallback }
        if isDeviceName(name) {
            // "con.txt" → "con_.txt": the device is the part before the first dot.
            let stemEnd = name.firstIndex(of: ".") ?? name.endIndex
            name.insert("_", at: stemEnd)
        }
        let (base, ext) = split(name)
        return fitted(base, suffix: "", ext: ext)
    }

    /// `name` (already safe) or "name-2.ext", "name-3.ext"… — the first that no name among
    /// `existing` equals without regard to case or Unicode normalisation.
    public static func unique(_ name: String, among existing: Set<String>) -> String {
        let (base, ext) = split(name)
        var candidate = name
        var attempt = 2
        while existing.contains(key(candidate)) {
            candidate = fitted(base, suffix: "-\(attempt)", ext: ext)
            attempt += 1
        }
        return candidate
    }

    /// The names of `folder` as `unique` compares them.
    public static func existingKeys(in folder: String) -> Set<String> {
        Set(((try? FolderEntries.read(folder)) ?? []).map { key($0.name) })
    }

    /// How two names are compared: case-insensitive file systems (vfat, exFAT, NTFS) take them
    /// for one file.
    static func key(_ name: String) -> String { name.precomposedStringWithCanonicalMapping.lowercased() }

    /// The name without and with its extension ("Report 2026", "pdf"); ("", "") never.
    static func split(_ name: String) -> (base: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        let ext = String(name[name.index(after: dot)...])
        guard !ext.isEmpty, ext.count <= longestExtension, ext.allSatisfy({ $0.isLetter || $0.isNumber }) else { return (name, "") }
        return (String(name[..<dot]), ext)
    }

    /// Windows' reserved device names, with any extension: "con.txt", "LPT1.png".
    static func isDeviceName(_ name: String) -> Bool {
        var stem = name.uppercased()
        if let dot = stem.firstIndex(of: ".") { stem = String(stem[..<dot]) }
        while stem.hasSuffix(" ") { stem.removeLast() }
        if ["CON", "PRN", "AUX", "NUL"].contains(stem) { return true }
        guard stem.count == 4, stem.hasPrefix("COM") || stem.hasPrefix("LPT"), let digit = stem.last else { return false }
        return ("1"..."9").contains(digit)
    }

    /// base + suffix + "." + ext within 255 bytes, shortening the base (never to a trailing
    /// dot or space).
    static func fitted(_ base: String, suffix: String, ext: String) -> String {
        let tail = suffix + (ext.isEmpty ? "" : ".\(ext)")
        var cut = FileNameLength.fit(base, tail)
        cut.removeLast(tail.count)
        while let last = cut.last, last == "." || last == " " { cut.removeLast() }
        if cut.isEmpty { cut = fallback }
        return cut + tail
    }
}
