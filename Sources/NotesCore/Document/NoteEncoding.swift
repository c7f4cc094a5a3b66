import Foundation

/// How a note's bytes become the editor's text and back, exactly. The editor works on text
/// with "\n" line breaks and no byte-order mark; the file keeps its own: a file whose every
/// line ends in "\r\n" (Windows) is written back with "\r\n", and a UTF-8 BOM stays at its
/// start. Bytes that cannot come back exactly (not UTF-8; a NUL, which GTK's text buffer
/// cannot hold) make the note read-only, so it is never rewritten.
///
/// An LF or CRLF note is written with its convention whatever line breaks the text holds
/// ("\n", "\r\n" or a lone "\r", each one break as GTK shows it), so no edit can write
/// "\r\r\n" or a stray "\r" into it. A mixed note (LF and CRLF lines, lone CRs, "\r\r\n")
/// is written exactly as its text is: the editor keeps its own edits from joining a lone "\r"
/// to a line break (`LineBreaks`).
public struct NoteEncoding: Equatable, Sendable, Codable {
    public enum LineEnding: Equatable, Sendable, Codable {
        /// Every line ends in "\n" and there is no "\r" (also a note without line breaks).
        case lf
        /// Every line ends in "\r\n", and there is no other "\r".
        case crlf
        /// Anything else: the text holds the file's "\r"s and is written back as it is.
        case mixed
    }

    public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    public var lineEnding: LineEnding = .lf
    public var hasByteOrderMark = false

    public init(lineEnding: LineEnding = .lf, hasByteOrderMark: Bool = false) {
        self.lineEnding = lineEnding
        self.hasByteOrderMark = hasByteOrderMark
    }

    /// What a file's bytes give the editor.
    public struct Decoded: Sendable {
        /// The text to show (and, when `problem` is nil, to edit and save back).
        public let text: String
        public let encoding: NoteEncoding
        /// Why the note cannot be edited without changing bytes the user did not touch, or nil.
        public let problem: String?
    }

    public static let notUTF8Problem = tr("This file is not UTF-8 text. Notula shows it read-only and never changes it.")
    // TRANSLATORS: NUL is the character with code 0; ␀ is the symbol the editor shows in its place.
    public static let nulProblem = tr("This note contains a NUL character (byte 0), which the editor cannot hold. Notula shows it read-only (NUL as ␀) and never changes it.")

    public static func decode(_ data: Data) -> Decoded {
        var bytes = data[...]
        let bom = bytes.starts(with: byteOrderMark)
        if bom { bytes = bytes.dropFirst(byteOrderMark.count) }
        guard let raw = String(validating: bytes, as: UTF8.self) else {
            return Decoded(text: String(decoding: data, as: UTF8.self), encoding: NoteEncoding(), problem: notUTF8Problem)
        }
        if bytes.contains(0) {
            return Decoded(text: raw.replacingOccurrences(of: "\u{0}", with: "\u{2400}"),
                           encoding: NoteEncoding(hasByteOrderMark: bom), problem: nulProblem)
        }
        let lineEnding = lineEnding(of: bytes)
        // A CRLF note's every "\r" ends a line: the editor gets "\n" alone.
        let text = lineEnding == .crlf ? String(decoding: bytes.filter { $0 != 0x0D }, as: UTF8.self) : raw
        return Decoded(text: text, encoding: NoteEncoding(lineEnding: lineEnding, hasByteOrderMark: bom), problem: nil)
    }

    /// The file's bytes for the editor's text.
    public func encode(_ text: String) -> Data {
        var data = Data(capacity: text.utf8.count + 3)
        if hasByteOrderMark { data.append(contentsOf: Self.byteOrderMark) }
        if lineEnding == .mixed || lineEnding == .lf && !text.utf8.contains(0x0D) {
            data.append(contentsOf: text.utf8)
        } else {
            // Each break the editor shows ("\r\n", "\r", "\n") becomes the note's one.
            let lineBreak: [UInt8] = lineEnding == .crlf ? [0x0D, 0x0A] : [0x0A]
            var pendingCR = false
            for byte in text.utf8 {
                if pendingCR {
                    data.append(contentsOf: lineBreak)
                    pendingCR = false
                    if byte == 0x0A { continue }
                }
                switch byte {
                case 0x0D: pendingCR = true
                case 0x0A: data.append(contentsOf: lineBreak)
                default: data.append(byte)
                }
            }
            if pendingCR { data.append(contentsOf: lineBreak) }
        }
        return data
    }

    /// LF when there is no "\r"; CRLF when every "\r" is followed by "\n" and every "\n" follows
    /// a "\r"; mixed otherwise (a lone CR, "\r\r\n", LF and CRLF lines together).
    static func lineEnding<Bytes: Collection>(of bytes: Bytes) -> LineEnding where Bytes.Element == UInt8 {
        var previous: UInt8 = 0
        var sawCR = false, sawLoneLF = false
        for byte in bytes {
            if previous == 0x0D && byte != 0x0A { return .mixed }
            if byte == 0x0D { sawCR = true } else if byte == 0x0A && previous != 0x0D { sawLoneLF = true }
            previous = byte
        }
        if previous == 0x0D { return .mixed }
        return !sawCR ? .lf : sawLoneLF ? .mixed : .crlf
    }
}
