import NotesCore
import XCTest

/// A paste's bytes are judged by themselves: text only when it is valid UTF-8 without NUL or
/// other control characters, a picture only by its format's signature, anything else refused.
final class PastedBytesTests: XCTestCase {
    private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1]

    func testTextIsTextWhateverItsLineEndsAndScripts() {
        XCTAssertEqual(PastedBytes(Array("milk\r\nbread\rtea\n".utf8)), .text("milk\r\nbread\rtea\n"))
        XCTAssertEqual(PastedBytes(Array("Grüße, 日本語 🙂\t".utf8)), .text("Grüße, 日本語 🙂\t"))
        XCTAssertEqual(PastedBytes(Array("BM is a text too".utf8)), .text("BM is a text too"))
        XCTAssertEqual(PastedBytes([]), .text(""))
        // Some X programs end their strings with a NUL.
        XCTAssertEqual(PastedBytes(Array("word".utf8) + [0]), .text("word"))
    }

    func testPicturesAreKnownByTheirSignatures() {
        XCTAssertEqual(PastedBytes(png), .picture)
        XCTAssertEqual(PastedBytes([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8)), .picture)
        XCTAssertEqual(PastedBytes(Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0]), .picture)
        XCTAssertEqual(PastedBytes(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)), .picture)
        XCTAssertEqual(PastedBytes(Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 24, 0]),
                       .picture)
    }

    func testBytesThatAreNeitherAreRefused() {
        XCTAssertEqual(PastedBytes([0x61, 0, 0x62]), .notText, "a NUL inside")
        XCTAssertEqual(PastedBytes([0x61, 0xC3]), .notText, "cut-off UTF-8")
        XCTAssertEqual(PastedBytes([0xED, 0xA0, 0x80]), .notText, "a surrogate")
        XCTAssertEqual(PastedBytes([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0]), .notText, "an ELF binary")
        XCTAssertEqual(PastedBytes(Array("\u{1B}[31mred".utf8)), .notText, "an escape sequence")
        XCTAssertEqual(PastedBytes([0x61, 0, 0]), .notText, "more than one NUL at the end")
        XCTAssertEqual(PastedBytes(Array(png.dropFirst())), .notText, "a PNG without its first byte")
    }

    /// No random bytes with a NUL, a control character or invalid UTF-8 pass as text; what
    /// passes is exactly its bytes.
    func testRandomBytesAreTextOnlyWhenTheyAreExactlyValidText() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if case .text(let text) = PastedBytes(bytes) {
                XCTAssertEqual(Array(text.utf8), bytes.last == 0 ? Array(bytes.dropLast()) : bytes)
                XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && !(0x09...0x0D).contains($0.value) || $0.value == 0x7F })
            }
        }
    }
}
