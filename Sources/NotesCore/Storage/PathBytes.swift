import Foundation

/// File names are bytes, and Swift strings are Unicode: a name that is not valid UTF-8
/// ("caf\xe9.md" from a Latin-1 system, a Windows share, an old archive) cannot be a `String`
/// as it is, and decoding it with replacement characters names a file that does not exist —
/// such notes were never listed, and a move of all notes left them behind.
///
/// Notula's path strings carry such bytes losslessly: each byte that is not part of valid UTF-8
/// becomes one scalar of U+10FF80…U+10FFFF (plane 16, private use), and a name's own scalars
/// in that range are escaped the same way, byte by byte, so every byte string has exactly one
/// string and back. Everything that reaches the file system goes through `withCString` (see
/// `FileSystem`) and gets its bytes back; everything a person reads goes through `display`.
public enum PathBytes {
    /// The first scalar standing for a byte: U+10FF00 + byte (bytes ≥ 0x80 only can be invalid).
    private static let base: UInt32 = 0x10FF00

    /// The string for a name's (or path's) bytes.
    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let array = Array(bytes)
        if let valid = String(validating: array, as: UTF8.self), !valid.utf8.contains(0xF4) { return valid }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < array.count {
            if let (scalar, length) = decode(array, at: index), scalar.value < base {
                scalars.append(scalar)
                index += length
            } else {
                // Not UTF-8, or a scalar of the escape range itself: each byte of it escaped.
                let length = decode(array, at: index)?.1 ?? 1
                for byte in array[index..<(index + length)] { scalars.append(Unicode.Scalar(base + UInt32(byte))!) }
                index += length
            }
        }
        return String(scalars)
    }

    /// The bytes a string made by `string` stands for (any other string: its UTF-8).
    public static func bytes(_ string: String) -> [UInt8] {
        guard hasEscapes(string) else { return Array(string.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Calls `body` with the NUL-terminated bytes of `path`, for a system call.
    public static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard hasEscapes(path) else { return try path.withCString(body) }
        var bytes = bytes(path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { try $0.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) } }
    }

    /// Whether the string carries bytes that are not valid UTF-8 (a name to fix).
    public static func hasEscapes(_ string: String) -> Bool {
        // Scalars of plane 16 start with the byte 0xF4: most strings have none.
        string.utf8.contains(0xF4) && string.unicodeScalars.contains { $0.value >= base + 0x80 && $0.value <= base + 0xFF }
    }

    /// The last part of a path (a note's file, a notebook), as a person reads it.
    public static func displayName(_ path: String) -> String {
        display((path as NSString).lastPathComponent)
    }

    /// The string as a person reads it: each byte that is not UTF-8 as "�" (a name's own
    /// plane-16 scalars, escaped byte by byte, as themselves).
    public static func display(_ string: String) -> String {
        replacingEscapes(in: string) { String(decoding: $0, as: UTF8.self) }
    }

    /// A UTF-8 name for a name that is not: its bytes read as Windows-1252 (ISO 8859-1 where
    /// that has no character), which is what such names almost always are ("caf\xe9" →
    /// "café"). A name's own plane-16 scalars stay as they are.
    public static func repaired(_ string: String) -> String {
        replacingEscapes(in: string) { bytes in
            String(validating: bytes, as: UTF8.self) ?? String(String.UnicodeScalarView(bytes.map(windows1252)))
        }
    }

    /// `string` with each run of escaped bytes replaced by what `convert` makes of them.
    private static func replacingEscapes(in string: String, _ convert: ([UInt8]) -> String) -> String {
        guard hasEscapes(string) else { return string }
        var result = String.UnicodeScalarView()
        var run: [UInt8] = []
        for scalar in string.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                run.append(UInt8(scalar.value - base))
                continue
            }
            if !run.isEmpty {
                result.append(contentsOf: convert(run).unicodeScalars)
                run = []
            }
            result.append(scalar)
        }
        if !run.isEmpty { result.append(contentsOf: convert(run).unicodeScalars) }
        return String(result)
    }

    /// Windows-1252's character for a byte ≥ 0x80 (its five holes as ISO 8859-1 controls, shown
    /// by their code point: they are rarely meant).
    private static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        let high: [UInt32] = [0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
                              0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178]
        let value = byte < 0xA0 && byte >= 0x80 ? high[Int(byte - 0x80)] : UInt32(byte)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// The scalar of the valid UTF-8 sequence at `index`, and its length; nil when the bytes
    /// there are not one (a stray continuation byte, a truncated or overlong sequence, a surrogate).
    private static func decode(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }  // overlong, surrogate or past U+10FFFF
        return (scalar, length)
    }
}
