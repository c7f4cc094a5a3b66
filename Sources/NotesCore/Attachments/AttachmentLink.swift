import Foundation

/// The Markdown a note gets for an attachment: a plain relative link from the note's folder,
/// percent-encoded where CommonMark needs it, so other Markdown tools show it too.
public enum AttachmentLink {
    /// Extensions the editor shows inline as pictures.
    static let pictureExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "tif", "tiff", "ico"]

    /// The Markdown to insert in `note` for the attachment at library-relative `path`:
    /// `![](../attachments/x.png)` for pictures, `[name.pdf](attachments/name.pdf)` otherwise.
    public static func markdown(forAttachment path: String, in note: NoteLocation) -> String {
        let address = relativeAddress(of: path, fromFolder: note.folderID)
        let name = (path as NSString).lastPathComponent
        if isPicture(name) { return "![](\(address))" }
        return "[\(escapedText(name))](\(address))"
    }

    /// Pictures the editor shows inline, by extension: png jpg jpeg gif webp svg bmp tif tiff ico.
    public static func isPicture(_ name: String) -> Bool {
        pictureExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    /// The link address of the library-relative `path` from the library-relative `folder`
    /// ("" for the top), percent-encoded.
    public static func relativeAddress(of path: String, fromFolder folder: String) -> String {
        let from = folder.split(separator: "/").map(String.init)
        let to = path.split(separator: "/").map(String.init)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...].map(encode)
        return parts.joined(separator: "/")
    }

    /// One path part as a link address has it: bytes that would end or change the address
    /// (blanks, brackets, `%`, `#`, `?`, `\`, controls) and bytes that are not UTF-8 as
    /// %XX; other letters, non-ASCII ones too, as they are.
    public static func encode(_ part: String) -> String {
        var result = ""
        let bytes = PathBytes.bytes(part)
        if String(validating: bytes, as: UTF8.self) == nil {
            for byte in bytes { result += byte < 0x80 && !needsEncoding(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte) }
            return result
        }
        for scalar in part.unicodeScalars {
            if scalar.isASCII, needsEncoding(UInt8(scalar.value)) {
                result += String(format: "%%%02X", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEncoding(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || "()<>%#?\\[]\"`".utf8.contains(byte)
    }

    /// Link text that shows `name` as it is.
    private static func escapedText(_ name: String) -> String {
        var result = ""
        for character in name {
            if "[]\\*_`".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
