import Foundation

/// Decodes bytes as strict UTF-8. For a prefix of a longer file, a multi-byte character cut
/// at the end is not an error; anything else invalid is.
enum UTF8Prefix {
    static func decode(_ bytes: ArraySlice<UInt8>, isWholeFile: Bool) -> String? {
        var end = bytes.endIndex
        if !isWholeFile {
            // Drop an incomplete trailing sequence (at most 3 bytes).
            var back = end
            while back > bytes.startIndex, end - back < 4, (bytes[back - 1] & 0xC0) == 0x80 { back -= 1 }
            if back > bytes.startIndex {
                let lead = bytes[back - 1]
                let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
                if needed > end - (back - 1) { end = back - 1 }
            }
        }
        return String(validating: bytes[bytes.startIndex..<end], as: UTF8.self)
    }
}
