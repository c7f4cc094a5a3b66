import NotesCore
import TestSupport
import XCTest

/// Which bytes reach a picture decoder: the six formats Notula shows, by their first bytes;
/// the formats gdk-pixbuf has other loaders for (ICO, ANI, XPM, TGA, ICNS…) never, whatever
/// the file is named.
final class PictureFormatTests: XCTestCase {
    func testTheSixFormatsAreKnownByTheirBytes() {
        XCTAssertEqual(PictureFormat.of(PNGBomb.bytes(width: 4, height: 3)), .png)
        XCTAssertEqual(PictureFormat.of([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]), .jpeg)
        XCTAssertEqual(PictureFormat.of(Array("GIF89a".utf8) + [1, 0, 1, 0]), .gif)
        XCTAssertEqual(PictureFormat.of(Array("RIFF".utf8) + [0x20, 0, 0, 0] + Array("WEBPVP8 ".utf8)), .webp)
        XCTAssertEqual(PictureFormat.of(Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0] + [UInt8](repeating: 0, count: 20)), .bmp)
        XCTAssertEqual(PictureFormat.of(Array("\u{FEFF}  <?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)), .svg)
        XCTAssertEqual(PictureFormat.svg.mediaType, "image/svg+xml")
        XCTAssertEqual(PictureFormat.jpeg.loaderName, "jpeg")
    }

    func testOtherLoadersFormatsAndTextAreNoPicture() {
        let icon: [UInt8] = [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]
        let cursor: [UInt8] = [0, 0, 2, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]
        let animatedCursor = Array("RIFF".utf8) + [0x20, 0, 0, 0] + Array("ACONanih".utf8)
        let xpm = Array("/* XPM */\nstatic char *x[] = {\"1 1 1 1\", \"a c #000\", \"a\"};".utf8)
        let targa: [UInt8] = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 32, 8, 0, 0, 0, 0]
        let icns = Array("icns".utf8) + [0, 0, 0, 8]
        let qtif = [0, 0, 0, 12] + Array("idsc".utf8)
        let text = Array("Groceries\nmilk <svg> is not a picture".utf8)
        for (name, bytes) in [("ico", icon), ("cur", cursor), ("ani", animatedCursor), ("xpm", xpm), ("tga", targa),
                              ("icns", icns), ("qtif", qtif), ("text", text), ("empty", [])] {
            XCTAssertNil(PictureFormat.of(bytes), name)
        }
    }
}
