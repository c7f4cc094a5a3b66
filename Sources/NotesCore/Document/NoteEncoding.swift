import Foundation

/// How a note's bytes become the editor's text and back, exactly. The editor works on text
/// with "\n" line breaks and no byte-order mark; the file keeps its own: a file whose every
/// line ends in "\r\n" (Windows) is written back with "\r\n", and a UTF-8 BOM stays at its
/// start. Bytes that cannot come back exactly (not UTF-8; a NUL, which GTK's text buffer
/// cannot hold) make the note read-only, so it is never rewritten.
public struct NoteEncoding: Equatable, Sendable {
    public enum LineEnding: Equatable, Sendable { case lf, crlf }

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
        let crlf = usesCRLFOnly(bytes)
        let text = crlf ? String(decoding: removingCR(bytes), as: UTF8.self) : raw
        return Decoded(text: text, encoding: NoteEncoding(lineEnding: crlf ? .crlf : .lf, hasByteOrderMark: bom), problem: nil)
    }

    /// The file's bytes for the editor's text.
    public func encode(_ text: String) -> Data {
        var data = Data(capacity: text.utf8.count + 3)
        if hasByteOrderMark { data.append(contentsOf: Self.byteOrderMark) }
        switch lineEnding {
        case .lf:
            data.append(contentsOf: text.utf8)
        case .crlf:
            for byte in text.utf8 {
                if byte == 0x0A { data.append(0x0D) }
                data.append(byte)
            }
        }
        return data
    }

    /// Every "\n" follows a "\r", and there is at least one.
    static func usesCRLFOnly<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        var previous: UInt8 = 0
        var sawLineBreak = false
        for byte in bytes {
            if byte == 0x0A {
                guard previous == 0x0D else { return false }
                sawLineBreak = true
            }
            previous = byte
        }
        return sawLineBreak
    }

    /// The bytes with the "\r" of each "\r\n" removed.
    private static func removingCR<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var pendingCR = false
        for byte in bytes {
            if pendingCR && byte != 0x0A { result.append(0x0D) }
            pendingCR = byte == 0x0D
            if !pendingCR { result.append(byte) }
        }
        if pendingCR { result.append(0x0D) }
        return result
    }
}
