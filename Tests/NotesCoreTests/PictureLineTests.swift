import NotesCore
import XCTest

final class PictureLineTests: XCTestCase {
    func testALineHoldingOnlyAnImageIsAPictureLine() {
        XCTAssertEqual(PictureLine.parse("![](attachments/pasted-2026-11-25-100405.png)"),
                       PictureLine(alt: "", address: "attachments/pasted-2026-11-25-100405.png"))
        XCTAssertEqual(PictureLine.parse("  ![A cat](../../attachments/cat.jpg \"Sleeping\")  "),
                       PictureLine(alt: "A cat", address: "../../attachments/cat.jpg", title: "Sleeping"))
        XCTAssertEqual(PictureLine.parse("![a [nested] alt \\] here](attachments/My%20Cat%20(2).png)"),
                       PictureLine(alt: "a [nested] alt ] here", address: "attachments/My%20Cat%20(2).png"))
        XCTAssertEqual(PictureLine.parse("![x](<attachments/with space.png>)"), PictureLine(alt: "x", address: "attachments/with space.png"))
        XCTAssertEqual(PictureLine.parse("![x](a.png 'single')")?.title, "single")
        XCTAssertEqual(PictureLine.parse("![x](a.png\r")?.address, nil)
        XCTAssertEqual(PictureLine.parse("![x](a.png)\r")?.address, "a.png")
    }

    func testOtherLinesAreNot() {
        for line in ["", "text", "See ![](a.png)", "![](a.png) and text", "[![](a.png)](b)", "![](a.png)![](b.png)",
                     "![]()", "![alt](a.png", "![alt] (a.png)", "[link](a.png)", "- ![](a.png)", "![x](a.png \"unclosed)",
                     "![x](<a.png)", "![x](a.png b.png)"] {
            XCTAssertNil(PictureLine.parse(line), line)
        }
    }

    func testFileNameIsTheAddresssLastPartDecoded() {
        XCTAssertEqual(PictureLine(alt: "", address: "../attachments/My%20Cat.png").fileName, "My Cat.png")
        XCTAssertEqual(PictureLine(alt: "", address: "x.png#frag").fileName, "x.png")
    }

    /// A GIF of `frames` 2×2 frames with a global palette and a looping extension.
    static func gif(frames: Int) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + [2, 0, 2, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for frame in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0, 1, 0, 0, 0]  // graphic control: 1/100 s
            bytes += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0]
            bytes += [2, 2, frame % 2 == 0 ? 0x44 : 0x4C, 0x01, 0]  // LZW min size 2, one sub-block
        }
        return bytes + [0x3B]
    }

    func testAGIFIsCutToItsFirstFrame() throws {
        let many = Self.gif(frames: 10_000)
        let first = try XCTUnwrap(PictureBytes.firstFrameOfGIF(many))
        XCTAssertEqual(first, Self.gif(frames: 1))
        XCTAssertEqual(first.filter { $0 == 0x2C }.count, 1)
        XCTAssertTrue(PictureBytes.isGIF(many))
    }

    func testATruncatedOrForeignFileIsNotCut() {
        let gif = Self.gif(frames: 3)
        XCTAssertNil(PictureBytes.firstFrameOfGIF(Array(gif.prefix(40))))
        XCTAssertNil(PictureBytes.firstFrameOfGIF(Array("\u{89}PNG\r\n\u{1A}\n".utf8) + [UInt8](repeating: 0, count: 40)))
        XCTAssertNil(PictureBytes.firstFrameOfGIF(Array(gif.prefix(13)) + [0x3B]))
        XCTAssertNil(PictureBytes.firstFrameOfGIF(Array(gif.prefix(13)) + [0x21, 0xF9, 200]))
    }

    func testCutOffFilesDoNotLookComplete() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 50)
        XCTAssertFalse(PictureBytes.looksComplete(png))
        XCTAssertTrue(PictureBytes.looksComplete(png + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]))
        XCTAssertFalse(PictureBytes.looksComplete([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]))
        XCTAssertTrue(PictureBytes.looksComplete([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]))
        XCTAssertFalse(PictureBytes.looksComplete(Array(Self.gif(frames: 2).prefix(30))))
        XCTAssertTrue(PictureBytes.looksComplete(Self.gif(frames: 2)))
        XCTAssertTrue(PictureBytes.looksComplete(Array("<svg/>".utf8)))
    }
}
