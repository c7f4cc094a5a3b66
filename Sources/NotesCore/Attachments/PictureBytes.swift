/// Checks on a picture file's bytes made before any decoder sees them, so a hostile file
/// costs little: an animated GIF is cut to its first frame (a GIF of 10,000 frames would
/// otherwise be decoded whole), and a header's claimed size is read without decoding.
public enum PictureBytes {
    /// The GIF up to the end of its first image, with a trailer: still a valid GIF, showing
    /// the first frame. nil when `bytes` is not a GIF or ends before its first image does.
    public static func firstFrameOfGIF(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 13, bytes.starts(with: Array("GIF8".utf8)) else { return nil }
        var position = 13
        let screenFlags = bytes[10]
        if screenFlags & 0x80 != 0 { position += 3 << (Int(screenFlags & 7) + 1) }
        func skipSubBlocks() -> Bool {
            while position < bytes.count {
                let size = Int(bytes[position])
                position += 1 + size
                if size == 0 { return position <= bytes.count }
            }
            return false
        }
        while position < bytes.count {
            switch bytes[position] {
            case 0x21:  // extension: label, then sub-blocks
                position += 2
                guard skipSubBlocks() else { return nil }
            case 0x2C:  // image descriptor (9 bytes), optional local colours, LZW size, data
                guard position + 10 <= bytes.count else { return nil }
                let flags = bytes[position + 9]
                position += 10
                if flags & 0x80 != 0 { position += 3 << (Int(flags & 7) + 1) }
                position += 1
                guard position <= bytes.count, skipSubBlocks() else { return nil }
                return Array(bytes[..<position]) + [0x3B]
            default:  // the trailer before any image, or garbage
                return nil
            }
        }
        return nil
    }

    /// Whether the bytes start like a GIF.
    public static func isGIF(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8))
    }

    /// Whether a PNG, JPEG or GIF ends where its format says it ends (a PNG with its IEND
    /// chunk, a JPEG with its end marker, a GIF with its first image whole). Decoders show a
    /// cut-off file as a partly blank picture without a word; other formats are not checked.
    public static func looksComplete(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return contains(Array("IEND".utf8), inLast: 64 * 1024, of: bytes)
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            return contains([0xFF, 0xD9], inLast: 64 * 1024, of: bytes)
        }
        if isGIF(bytes) { return firstFrameOfGIF(bytes) != nil }
        return true
    }

    private static func contains(_ needle: [UInt8], inLast count: Int, of bytes: [UInt8]) -> Bool {
        let tail = bytes.suffix(count)
        guard tail.count >= needle.count else { return false }
        var index = tail.endIndex - needle.count
        while index >= tail.startIndex {
            if tail[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index -= 1
        }
        return false
    }
}
