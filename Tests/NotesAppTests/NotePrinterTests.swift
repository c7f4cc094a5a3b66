import Foundation
import Gtk
import NotesCore
import TestSupport
import XCTest
@testable import NotesApp

/// A note printed to a PDF file through GtkPrintOperation's export path (no dialog), read back
/// with poppler's `pdftotext`, `pdfinfo` and `pdfimages`: the note's words on the pages,
/// rendered (no `**`, `#`, `[[`, `- [ ]`), as many pages as the printer reported, page
/// numbers, and the picture drawn.
final class NotePrinterTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testExportedPDFHoldsTheRenderedNote() throws {
        try MainActor.assumeIsolated { try exportedPDFHoldsTheRenderedNote() }
    }

    nonisolated func testABombOrAnIconNamedPNGPrintsAsItsDescription() throws {
        try MainActor.assumeIsolated { try bombOrIconPrintsAsItsDescription() }
    }

    private func decodedPictures(_ printable: PrintableNote) -> [String: DecodedImage] {
        var pictures: [String: DecodedImage]?
        PrintPreparation.prepare({ printable }) { _, decoded in pictures = decoded }
        spin(until: { pictures != nil }, timeout: 10)
        return pictures ?? [:]
    }

    /// A PNG of 60,000 × 60,000 pixels in a few hundred bytes (14.4 GB decoded), and a
    /// Windows icon named `.png` (gdk-pixbuf's ICO loader would read it): the editor refuses
    /// both, and so do Print and Export as PDF, before any pixel exists.
    private func bombOrIconPrintsAsItsDescription() throws {
        let library = makeFolder()
        try FileManager.default.createDirectory(at: library.appendingPathComponent("attachments"), withIntermediateDirectories: true)
        try Data(PNGBomb.bytes(width: 60_000, height: 60_000)).write(to: library.appendingPathComponent("attachments/bomb.png"))
        var icon: [UInt8] = [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0x68, 4, 0, 0, 22, 0, 0, 0]
        icon += [40, 0, 0, 0, 16, 0, 0, 0, 32, 0, 0, 0, 1, 0, 32, 0] + [UInt8](repeating: 0, count: 24) + [UInt8](repeating: 0x80, count: 16 * 16 * 4 + 64)
        try Data(icon).write(to: library.appendingPathComponent("attachments/icon.png"))
        let printable = PrintableNote(text: "Pictures\n\n![Bomb here](attachments/bomb.png)\n\n![Icon here](attachments/icon.png)\n",
                                      noteID: "Pictures.md", library: library)
        let pictures = decodedPictures(printable)
        XCTAssertTrue(pictures.isEmpty, "\(pictures.keys)")
        let pdf = makeFolder().appendingPathComponent("Pictures.pdf")
        let (outcome, _) = NotePrinter(title: "Pictures", printable: printable, pictures: pictures).exportPDF(to: pdf.path)
        guard case .printed = outcome else { return XCTFail("export: \(outcome)") }
        let words = try poppler("pdftotext", [pdf.path, "-"])
        XCTAssertTrue(words.contains("Bomb here") && words.contains("Icon here"), words)
        XCTAssertTrue(try poppler("pdfimages", ["-list", pdf.path]).split(separator: "\n").dropFirst(2).isEmpty)
    }

    private func poppler(_ tool: String, _ arguments: [String]) throws -> String {
        let path = "/usr/bin/\(tool)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(tool) is missing: install poppler-utils (make deps-test)")
            throw CocoaError(.fileNoSuchFile)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        return String(decoding: output, as: UTF8.self)
    }

    private func exportedPDFHoldsTheRenderedNote() throws {
        let library = makeFolder()
        try FileManager.default.createDirectory(at: library.appendingPathComponent("attachments"), withIntermediateDirectories: true)
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGP4z8AARww4OQD1MQv1NXv7ggAAAABJRU5ErkJggg==")!
        try png.write(to: library.appendingPathComponent("attachments/red.png"))
        let filler = (1...60).map { "Paragraph number \($0) keeps the pages **coming** along." }.joined(separator: "\n\n")
        let text = """
            Trip plan
            Some **bold** and *italic* words, see [[Packing list]].

            ## Before leaving
            - [ ] Book the train
            - [x] Pack the tent
            1. First stop

            | Day | Place |
            |-----|-------|
            | Mon | Lyon  |

            ![Red square](attachments/red.png)

            \(filler)

            Last words here.
            """
        let printable = PrintableNote(text: text, noteID: "Trip plan.md", library: library)
        let pdf = makeFolder().appendingPathComponent("Trip plan.pdf")
        let (outcome, pages) = NotePrinter(title: "Trip plan", printable: printable, pictures: decodedPictures(printable)).exportPDF(to: pdf.path)
        guard case .printed = outcome else { return XCTFail("export: \(outcome)") }
        XCTAssertGreaterThanOrEqual(pages, 2, "sixty paragraphs fill more than a page")

        let words = try poppler("pdftotext", ["-layout", pdf.path, "-"])
        for expected in ["Trip plan", "Before leaving", "Book the train", "Pack the tent", "First stop", "Lyon",
                         "see Packing list.", "Paragraph number 60 keeps the pages coming along.", "Last words here."] {
            XCTAssertTrue(words.contains(expected), "“\(expected)” is not in the PDF:\n\(words)")
        }
        XCTAssertNotNil(words.range(of: "1\\s*/\\s*\(pages)", options: .regularExpression), "no page numbers")
        for syntax in ["**", "## ", "[[", "- [ ]", "[x]", "|-----"] {
            XCTAssertFalse(words.contains(syntax), "the PDF shows the syntax \(syntax)")
        }
        let info = try poppler("pdfinfo", [pdf.path])
        XCTAssertTrue(info.contains("Pages:") && info.range(of: "Pages:\\s+\(pages)\\n", options: .regularExpression) != nil, info)
        let images = try poppler("pdfimages", ["-list", pdf.path]).split(separator: "\n").dropFirst(2)
        XCTAssertEqual(images.count, 1, "the picture is drawn once: \(images)")
    }
}
