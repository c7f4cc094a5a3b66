/// What a paste's bytes are, judged by the bytes alone. A clipboard owner may answer a request
/// for text with a picture's bytes (`xclip -t image/png` answers every request with its file),
/// and the formats a toolkit lists may still be the previous owner's: only the bytes say what
/// arrived. Text must be valid UTF-8 without NUL or other control characters but tab and line
/// breaks; a picture must carry its format's signature.
public enum PastedBytes: Equatable, Sendable {
    case text(String)
    /// A picture in one of the formats the editor shows (PNG, JPEG, GIF, WebP, BMP).
    case picture
    /// Neither: binary data, invalid UTF-8, control characters. Nothing is pasted.
    case notText

    /// Most a paste reads from the clipboard (a picture or a text), so an owner that sends
    /// without end costs no more.
    public static let readLimit = 64 * 1024 * 1024

    public init(_ bytes: [UInt8]) {
        // Some X programs end a string with one NUL. (No picture's bytes are text: each
        // format's header has bytes UTF-8 refuses, or NULs.)
        let body = bytes.last == 0 ? bytes.dropLast() : bytes[...]
        if body.allSatisfy(Self.isTextByte), let text = String(validating: body, as: UTF8.self) {
            self = .text(text)
        } else if Self.isPicture(bytes) {
            self = .picture
        } else {
            self = .notText
        }
    }

    /// Control characters other than tab, line and page breaks are no text a person copies
    /// (NUL, ESC, DEL…): binary data, or a picture a program sent for a request for text.
    static func isTextByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : (0x09...0x0D).contains(byte)
    }

    /// PNG, JPEG, GIF, WebP or BMP by its signature (an SVG is text).
    static func isPicture(_ bytes: [UInt8]) -> Bool {
        PictureFormat.of(bytes).map { $0 != .svg } ?? false
    }
}
