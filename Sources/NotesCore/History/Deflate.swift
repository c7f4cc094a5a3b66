import CZlib
import Foundation

/// zlib's deflate for the note history: text shrinks to about a third, for a few milliseconds
/// per megabyte on the history's own queue. `checksum` (CRC-32) adds bits to the content key.
enum Deflate {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "zlib error \(code)" }
    }

    static func compress(_ data: Data) throws -> Data {
        var capacity = compressBound(uLong(data.count))
        var output = Data(count: Int(capacity))
        let result = output.withUnsafeMutableBytes { target in
            data.withUnsafeBytes { source in
                compress2(target.bindMemory(to: Bytef.self).baseAddress, &capacity,
                          source.bindMemory(to: Bytef.self).baseAddress, uLong(data.count), 6)
            }
        }
        guard result == Z_OK else { throw Failure(code: result) }
        output.count = Int(capacity)
        return output
    }

    /// Inflates `data`, which must come out exactly `size` bytes long.
    static func decompress(_ data: Data, size: Int) throws -> Data {
        if size == 0 { return Data() }
        var length = uLong(size)
        var output = Data(count: size)
        let result = output.withUnsafeMutableBytes { target in
            data.withUnsafeBytes { source in
                uncompress(target.bindMemory(to: Bytef.self).baseAddress, &length,
                           source.bindMemory(to: Bytef.self).baseAddress, uLong(data.count))
            }
        }
        guard result == Z_OK, Int(length) == size else { throw Failure(code: result == Z_OK ? Z_DATA_ERROR : result) }
        return output
    }

    static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { UInt32(crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
    }
}
