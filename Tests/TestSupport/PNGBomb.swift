/// A PNG that claims `width` × `height` pixels in a few dozen bytes: its header is valid (and
/// its checksums right), its pixel data a stub, so a decoder that trusts the header allocates
/// width × height × 4 bytes before noticing.
public enum PNGBomb {
    public static func bytes(width: UInt32, height: UInt32) -> [UInt8] {
        var header = bigEndian(width) + bigEndian(height)
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, no filter, no interlace
        // A zlib stream of one stored block holding one filter byte.
        let data: [UInt8] = [0x78, 0x01, 0x01, 0x01, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0x01, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data) + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
