import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp
#if canImport(Glibc)
import Glibc
#endif

/// Inline pictures on the real GtkSourceView: shown below their line without changing the
/// text, following edits, placeholders that say why, bounded memory, hostile files refused
/// without a hang.
final class InlinePicturesTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    /// A library folder with an attachments folder, and an editor showing its note.md.
    private func makeEditor(library: URL, width: Int = 700, height: Int = 600) -> EditorView {
        let window = Window()
        window.setDefaultSize(width: width, height: height)
        let editor = EditorView()
        editor.noteLocation = { NoteLocation(library: library, noteID: "note.md") }
        window.child = editor.root
        window.present()
        addTeardownBlock { window.destroy() }
        return editor
    }

    private func makeLibrary() -> URL {
        let library = makeFolder()
        try? FileManager.default.createDirectory(at: library.appendingPathComponent("attachments"), withIntermediateDirectories: true)
        return library
    }

    /// Runs a small Python program that writes fixtures (arguments after the code).
    private func python(_ code: String, _ arguments: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", code] + arguments
        try? process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "fixture script failed")
    }

    /// Writes solid-colour PNGs: each argument "path:width:height:rrggbb".
    private func writePNGs(_ specs: [String]) {
        python("""
        import sys, zlib, struct
        def chunk(kind, data):
            return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
        for spec in sys.argv[1:]:
            path, w, h, color = spec.rsplit(':', 3)
            w, h = int(w), int(h)
            row = b'\\0' + bytes.fromhex(color) * w
            data = zlib.compress(row * h, 6)
            png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', data) + chunk(b'IEND', b'')
            open(path, 'wb').write(png)
        """, specs)
    }

    private func settle(_ editor: EditorView, timeout: Double = 10) -> Bool {
        spin(until: { editor.textView.isMapped && editor.pictures.isSettled && !editor.pictures.shownEntries.isEmpty }, timeout: timeout)
    }

    nonisolated func testAPictureLineShowsItsPictureBelowTheLineAndTheTextStaysTheSame() throws {
        try MainActor.assumeIsolated {
            let library = makeLibrary()
            writePNGs([library.appendingPathComponent("attachments/red.png").path + ":400:300:ff0000"])
            let text = "Title\n![A red box](attachments/red.png)\nAfter the picture\n"
            try Data(text.utf8).write(to: library.appendingPathComponent("note.md"))
            let editor = makeEditor(library: library)
            var changes = 0
            editor.onChange = { _ in changes += 1 }
            editor.show(text: String(decoding: try Data(contentsOf: library.appendingPathComponent("note.md")), as: UTF8.self), editable: true)
            XCTAssertTrue(settle(editor))
            let entry = try XCTUnwrap(editor.pictures.entries.first)
            XCTAssertEqual(entry.line, 1)
            XCTAssertNil(entry.problem)
            let frame = try XCTUnwrap(entry.frame)
            XCTAssertEqual(frame.width, 400, "never upscaled, column is wider")
            XCTAssertEqual(frame.height, 300)
            XCTAssertEqual((entry.widget as? Picture)?.alternativeText, "A red box")
            // Below its line: the picture starts under the line's text, the next line under it.
            let lineText = editor.textView.rectangle(atOffset: editor.buffer.startOffset(ofLine: 1))
            XCTAssertGreaterThanOrEqual(frame.y, lineText.y + lineText.height)
            XCTAssertTrue(spin(until: { editor.textView.rectangle(atOffset: editor.buffer.startOffset(ofLine: 2)).y >= frame.y + frame.height }),
                          "the next line is below the picture")
            // What is drawn: red inside the frame, not red on the text line above it.
            XCTAssertTrue(spin(until: { editor.textView.renderedTexture() != nil }))
            let shot = try XCTUnwrap(editor.textView.renderedTexture())
            if let folder = ProcessInfo.processInfo.environment["NOTULA_SHOTS"] { shot.savePNG(to: folder + "/inline-picture.png") }
            let centre = editor.textView.viewPoint(fromBufferPoint: frame.x + frame.width / 2, frame.y + frame.height / 2)
            XCTAssertEqual(shot.pixel(x: centre.x, y: centre.y), 0xFFFF_0000)
            let corner = editor.textView.viewPoint(fromBufferPoint: frame.x + 2, frame.y + 2)
            XCTAssertEqual(shot.pixel(x: corner.x, y: corner.y), 0xFFFF_0000)
            let above = editor.textView.viewPoint(fromBufferPoint: frame.x + frame.width / 2, lineText.y + 1)
            XCTAssertNotEqual(shot.pixel(x: above.x, y: above.y), 0xFFFF_0000)
            // The text and what would be saved are the note's bytes, untouched; nothing to undo.
            XCTAssertEqual(editor.text, text)
            XCTAssertEqual(Data(editor.text.utf8), try Data(contentsOf: library.appendingPathComponent("note.md")))
            XCTAssertFalse(editor.buffer.canUndo)
            XCTAssertEqual(changes, 0)
        }
    }

    nonisolated func testAWidePictureIsScaledToTheColumnAndEditingAboveMovesIt() throws {
        try MainActor.assumeIsolated {
            let library = makeLibrary()
            writePNGs([library.appendingPathComponent("attachments/wide.png").path + ":3000:1500:0000ff"])
            let editor = makeEditor(library: library)
            editor.show(text: "One\n![](attachments/wide.png)\n", editable: true)
            XCTAssertTrue(settle(editor))
            let entry = try XCTUnwrap(editor.pictures.entries.first)
            let before = try XCTUnwrap(entry.frame)
            let column = editor.textView.visibleRectangle.width - editor.textView.leftMargin - editor.textView.rightMargin
            XCTAssertEqual(before.width, column)
            XCTAssertEqual(before.height, Int((Double(column) / 2).rounded()))
            XCTAssertEqual((entry.widget as? Picture)?.alternativeText, "wide.png", "no alt text: the file name")
            // Decoded at the column's size, not 3000 pixels wide.
            XCTAssertLessThanOrEqual(try XCTUnwrap(entry.texture).width, 1024)
            editor.buffer.replace(0..<0, with: "A new first line\nand a second\n")
            XCTAssertTrue(spin(until: { (entry.frame?.y ?? 0) > before.y + 20 && editor.pictures.isSettled }))
            XCTAssertEqual(entry.line, 3)
            // Splitting the picture line's end gives the new line no picture space.
            let end = editor.buffer.startOffset(ofLine: 4) - 1
            editor.buffer.replace(end..<end, with: "\nplain")
            XCTAssertTrue(spin(until: { editor.pictures.isSettled }))
            XCTAssertEqual(editor.pictures.entries.map(\.line), [3])
            XCTAssertFalse(editor.buffer.tagNames(at: editor.buffer.startOffset(ofLine: 4)).contains { $0.hasPrefix("picture-space") })
            XCTAssertTrue(editor.buffer.tagNames(at: editor.buffer.startOffset(ofLine: 3)).contains { $0.hasPrefix("picture-space") })
            // Remove from Note: the line goes as one undoable edit; the file stays.
            editor.pictures.removeFromNote(entry)
            XCTAssertEqual(editor.text, "A new first line\nand a second\nOne\nplain\n")
            XCTAssertTrue(FileManager.default.fileExists(atPath: library.appendingPathComponent("attachments/wide.png").path))
            editor.buffer.undo()
            XCTAssertEqual(editor.text, "A new first line\nand a second\nOne\n![](attachments/wide.png)\nplain\n")
            XCTAssertTrue(spin(until: { editor.pictures.isSettled && editor.pictures.entries.first?.frame != nil }))
        }
    }

    nonisolated func testAMissingFileShowsAPlaceholderSayingSo() throws {
        try MainActor.assumeIsolated {
            let library = makeLibrary()
            let editor = makeEditor(library: library)
            editor.show(text: "![gone](attachments/x.png)\nText", editable: true)
            XCTAssertTrue(settle(editor))
            let entry = try XCTUnwrap(editor.pictures.entries.first)
            XCTAssertEqual(entry.problem, .missing("x.png"))
            XCTAssertEqual(entry.placeholder?.message, "Picture not found: x.png")
            XCTAssertEqual(entry.frame?.height, PicturePlaceholder.height)
            if let folder = ProcessInfo.processInfo.environment["NOTULA_SHOTS"] {
                XCTAssertTrue(spin(until: { editor.textView.renderedTexture()?.savePNG(to: folder + "/picture-missing.png") ?? false }))
            }
        }
    }

    nonisolated func testTwoHundredPicturesScrolledKeepDecodedMemoryUnderTheCap() {
        MainActor.assumeIsolated {
            let library = makeLibrary()
            writePNGs((0..<200).map { library.appendingPathComponent("attachments/p\($0).png").path + ":600:400:" + String(format: "%02x%02x80", $0, 255 - $0) })
            let editor = makeEditor(library: library)
            editor.show(text: (0..<200).map { "Picture \($0)\n![](attachments/p\($0).png)\n" }.joined(), editable: true)
            XCTAssertTrue(settle(editor))
            let pictures = editor.pictures!
            var mostShown = 0, decodedSomewhere = Set<Int>()
            var offset = 0.0
            while offset < editor.scrollUpperBoundForTesting {
                editor.scrollOffset = offset
                XCTAssertTrue(spin(until: { pictures.isSettled }), "settled at \(offset)")
                mostShown = max(mostShown, pictures.shownEntries.count)
                for entry in pictures.shownEntries where entry.texture != nil { decodedSomewhere.insert(entry.line) }
                // Decoded ahead, but only pictures at the view hand GTK pixels to draw each frame.
                let visible = editor.textView.visibleRectangle
                for entry in pictures.shownEntries {
                    guard let frame = entry.frame, let picture = entry.widget as? Picture else { continue }
                    if frame.y > visible.y + visible.height * 3 / 2 || frame.y + frame.height < visible.y - visible.height / 2 {
                        XCTAssertNil(picture.texture, "line \(entry.line) is far from the view")
                    } else if frame.y < visible.y + visible.height && frame.y + frame.height > visible.y {
                        XCTAssertNotNil(picture.texture, "line \(entry.line) is on screen")
                    }
                }
                XCTAssertLessThanOrEqual(pictures.cache.byteCount, pictures.cache.capacityBytes)
                offset += 400
            }
            XCTAssertGreaterThan(decodedSomewhere.count, 190, "every picture was shown on the way down")
            XCTAssertEqual(pictures.entries.count, 200)
            XCTAssertLessThan(mostShown, 20, "only pictures near the view have widgets and pixels")
            XCTAssertLessThan(pictures.cache.count, 200)
            XCTAssertTrue(pictures.entries.allSatisfy { $0.problem == nil })
        }
    }

    nonisolated func testHostileFilesEachGetAPlaceholderAndNothingHangs() throws {
        try MainActor.assumeIsolated {
            let library = makeLibrary()
            let outside = makeFolder()
            let attachments = library.appendingPathComponent("attachments")
            writePNGs([outside.appendingPathComponent("secret.png").path + ":10:10:00ff00", attachments.appendingPathComponent("ok.png").path + ":64:64:ff0000"])
            // A FIFO that librsvg would block on, were an SVG's external reference ever read.
            let trap = outside.appendingPathComponent("trap.png").path
            XCTAssertEqual(mkfifo(trap, 0o600), 0)
            XCTAssertEqual(mkfifo(attachments.appendingPathComponent("x.png").path, 0o600), 0)
            try FileManager.default.createSymbolicLink(atPath: attachments.appendingPathComponent("link.png").path,
                                                       withDestinationPath: outside.appendingPathComponent("secret.png").path)
            python("""
            import sys, zlib, struct, os, subprocess
            folder, trap = sys.argv[1], sys.argv[2]
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
            def png(w, h, depth, color, idat):
                return b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, color, 0, 0, 0)) + chunk(b'IDAT', idat) + chunk(b'IEND', b'')
            ok = open(os.path.join(folder, 'ok.png'), 'rb').read()
            open(os.path.join(folder, 'truncated.png'), 'wb').write(ok[:60])
            open(os.path.join(folder, 'huge-header.png'), 'wb').write(png(60000, 60000, 8, 2, zlib.compress(b'\\0' * 1000)))
            # 20000 x 20000 one-bit rows of zeros: 400 megapixels from a small file.
            z = zlib.compressobj(9); row = b'\\0' * 2501; data = b''.join(z.compress(row) for _ in range(20000)) + z.flush()
            open(os.path.join(folder, 'bomb.png'), 'wb').write(png(20000, 20000, 1, 0, data))
            subprocess.run(['convert', '-size', '16x16', 'xc:white', os.path.join(folder, 'small.jpg')], check=True)
            jpeg = bytearray(open(os.path.join(folder, 'small.jpg'), 'rb').read())
            i = 2
            while jpeg[i] == 0xFF and jpeg[i + 1] not in (0xC0, 0xC1, 0xC2):
                i += 2 + int.from_bytes(jpeg[i + 2:i + 4], 'big')
            jpeg[i + 5:i + 9] = struct.pack('>HH', 60000, 60000)
            open(os.path.join(folder, 'huge-header.jpg'), 'wb').write(jpeg)
            svg = f'''<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="50">
            <script>alert(1)</script><rect width="100" height="50" fill="#ff0000"/>
            <image xlink:href="file://{trap}" width="10" height="10"/><image href="{trap}" width="10" height="10"/>
            <image href="http://127.0.0.1:9/x.png" width="10" height="10"/><use href="file://{trap}#x"/></svg>'''
            open(os.path.join(folder, 'external.svg'), 'w').write(svg)
            gif = bytearray(b'GIF89a' + bytes([2, 0, 2, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]))
            gif += b'\\x21\\xff\\x0bNETSCAPE2.0\\x03\\x01\\x00\\x00\\x00'
            for n in range(10000):
                gif += bytes([0x21, 0xF9, 4, 0, 1, 0, 0, 0, 0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0, 2, 2, 0x44, 0x01, 0])
            open(os.path.join(folder, 'frames.gif'), 'wb').write(gif + b'\\x3b')
            with open(os.path.join(folder, 'big.png'), 'wb') as f: f.truncate(500 * 1024 * 1024)
            """, [attachments.path, trap])
            let editor = makeEditor(library: library)
            let cases: [(String, (PictureProblem?) -> Bool)] = [
                ("truncated.png", { $0 == .notAPicture("truncated.png") }),
                ("huge-header.png", { $0 == .tooLarge(width: 60000, height: 60000) }),
                ("huge-header.jpg", { $0 == .tooLarge(width: 60000, height: 60000) }),
                ("bomb.png", { $0 == .tooLarge(width: 20000, height: 20000) }),
                ("external.svg", { $0 == nil && editor.pictures.entries.first?.texture?.width == 100 }),
                ("frames.gif", { $0 == nil && editor.pictures.entries.first?.texture?.width == 2 }),
                ("x.png", { $0 == .notAPicture("x.png") }),
                ("link.png", { $0 == .refused("link.png") }),
                ("big.png", { $0 == .fileTooLarge("big.png") }),
            ]
            for (name, expected) in cases {
                let started = Date()
                editor.show(text: "\(name)\n![](attachments/\(name))\n", editable: true)
                XCTAssertTrue(spin(until: { editor.pictures.isSettled && (editor.pictures.entries.first.map { $0.texture != nil || $0.problem != nil } ?? false) }, timeout: 10), name)
                let entry = try XCTUnwrap(editor.pictures.entries.first)
                XCTAssertTrue(expected(entry.problem), "\(name): \(String(describing: entry.problem))")
                XCTAssertLessThan(Date().timeIntervalSince(started), 5, name)
                if let problem = entry.problem { XCTAssertEqual(entry.placeholder?.message, problem.message, name) }
            }
        }
    }

    nonisolated func testAClickOpensOnlyAShownPictureAndTheMenuCopiesAndShowsItsFile() throws {
        try MainActor.assumeIsolated {
            let library = makeLibrary()
            let outside = makeFolder()
            writePNGs([library.appendingPathComponent("attachments/red.png").path + ":200:100:ff0000",
                       outside.appendingPathComponent("secret.png").path + ":20:20:00ff00"])
            try FileManager.default.createSymbolicLink(atPath: library.appendingPathComponent("attachments/link.png").path,
                                                       withDestinationPath: outside.appendingPathComponent("secret.png").path)
            let editor = makeEditor(library: library)
            let pictures = editor.pictures!
            var desktop: [String] = [], folders: [URL] = []
            pictures.showOnDesktop = { desktop.append($0) }
            pictures.showFolder = { folders.append($0) }
            editor.show(text: "Text\n![Red](attachments/red.png)\n![](attachments/link.png)\n![](attachments/gone.png)\n", editable: true)
            XCTAssertTrue(spin(until: { pictures.isSettled && pictures.entries.count == 3 && pictures.entries.allSatisfy { $0.frame != nil } }))
            let red = pictures.entries[0], link = pictures.entries[1], gone = pictures.entries[2]
            XCTAssertEqual(link.problem, .refused("link.png"))
            XCTAssertEqual(gone.problem, .missing("gone.png"))
            @MainActor func centre(_ entry: InlinePictures.Entry) -> (x: Double, y: Double) {
                let frame = entry.frame!
                let point = editor.textView.viewPoint(fromBufferPoint: frame.x + frame.width / 2, frame.y + frame.height / 2)
                return (Double(point.x), Double(point.y))
            }
            // Clicks on the text, on a refused link's placeholder and on a missing file's open nothing.
            let text = editor.textView.viewPoint(fromBufferPoint: editor.textView.leftMargin + 5, 5)
            XCTAssertFalse(pictures.click(atViewPoint: Double(text.x), Double(text.y)))
            XCTAssertFalse(pictures.click(atViewPoint: centre(link).x, centre(link).y))
            XCTAssertFalse(pictures.click(atViewPoint: centre(gone).x, centre(gone).y))
            pictures.open(link)
            XCTAssertEqual(desktop, [])
            // A click on the picture opens its file, as the resolver gave it.
            XCTAssertTrue(pictures.click(atViewPoint: centre(red).x, centre(red).y))
            let file = library.appendingPathComponent("attachments/red.png").standardizedFileURL
            XCTAssertEqual(desktop, [file.absoluteString])
            XCTAssertEqual(pictures.opened, desktop)
            // Show in Files: the folder holding it; not for a missing file.
            pictures.showInFiles(red)
            pictures.showInFiles(gone)
            XCTAssertEqual(folders.map(\.standardizedFileURL.path), [file.deletingLastPathComponent().path])
            // Copy Image: the real clipboard holds the picture (read back as PNG, decoded).
            pictures.copyImage(red)
            var png: [UInt8]?
            var answered = false
            editor.textView.readClipboardImageAsPNG { png = $0; answered = true }
            XCTAssertTrue(spin(until: { answered }))
            guard case .decoded(let image) = PixbufDecoder.decode(try XCTUnwrap(png), type: "png", fitWidth: 1000) else { return XCTFail("not a picture") }
            XCTAssertEqual(image.width, 200)
            XCTAssertEqual(image.height, 100)
            XCTAssertEqual(Texture(image).pixel(x: 100, y: 50), 0xFFFF_0000)
        }
    }

    nonisolated func testMovingEveryNoteUnderAnOpenNoteReadsItsPicturesFromTheNewPlace() throws {
        try MainActor.assumeIsolated {
            let old = makeFolder().appendingPathComponent("Notes")
            try FileManager.default.createDirectory(at: old.appendingPathComponent("attachments"), withIntermediateDirectories: true)
            writePNGs([old.appendingPathComponent("attachments/red.png").path + ":300:200:ff0000"])
            try Data("Trip\n![Red](attachments/red.png)\n".utf8).write(to: old.appendingPathComponent("note.md"))
            let window = Window()
            window.setDefaultSize(width: 900, height: 700)
            let editor = EditorView()
            let openNote = OpenNoteController(editor: editor, status: StatusLight(), drafts: RecoveryDrafts(folder: makeFolder()),
                                              history: NoteHistory(folder: makeFolder()))
            let controller = NotesController(library: NoteLibrary(folder: old), list: NotesListView(), openNote: openNote, toast: ToastView())
            let box = Box(.horizontal)
            box.append(controller.sidebar)
            box.append(openNote.pane)
            window.child = box
            window.present()
            addTeardownBlock {
                openNote.abandon()
                window.destroy()
            }
            var started = false
            controller.start { started = true }
            XCTAssertTrue(spin(until: { started && controller.document != nil }))
            let pictures = editor.pictures!
            var desktop: [String] = []
            pictures.showOnDesktop = { desktop.append($0) }
            XCTAssertTrue(spin(until: { pictures.isSettled && pictures.entries.first?.texture != nil }))
            XCTAssertEqual(pictures.entries.first?.file?.path, old.appendingPathComponent("attachments/red.png").standardizedFileURL.path)
            // As the storage move does: hold the note, move the whole folder, point the note at
            // its new place, switch the library.
            let new = makeFolder().appendingPathComponent("Moved")
            var held: [NoteDocument]?
            SharedDocuments.shared.holdForMove { held = try? $0.get() }
            XCTAssertTrue(spin(until: { held != nil }))
            XCTAssertTrue(held?.contains { $0 === controller.document } ?? false, "the open note is held")
            try FileManager.default.moveItem(at: old, to: new)
            SharedDocuments.shared.releaseAfterMove(held ?? [], from: old, to: new)
            var switched = false
            controller.switchLibrary(to: new, createsFolder: false) { switched = true }
            let moved = new.appendingPathComponent("attachments/red.png").standardizedFileURL
            XCTAssertTrue(spin(until: { switched && pictures.isSettled && pictures.entries.first?.file == moved }),
                          "resolved against \(String(describing: pictures.entries.first?.file))")
            let entry = try XCTUnwrap(pictures.entries.first)
            XCTAssertNil(entry.problem, "shown, not a placeholder")
            XCTAssertNotNil(entry.texture)
            XCTAssertTrue(entry.widget is Picture)
            // Opening it opens the file where it is now.
            pictures.open(entry)
            XCTAssertEqual(desktop, [moved.absoluteString])
            XCTAssertEqual(editor.text, "Trip\n![Red](attachments/red.png)\n")
        }
    }
}
