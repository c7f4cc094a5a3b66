import Foundation
import Gtk
import NotesCore
import TestSupport
import XCTest
@testable import NotesApp

/// Pictures and files added to a note with the real editor, the real clipboard and real
/// files: paste, drop (its handling function), undo, and what opening a link does.
final class AttachmentInsertTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    /// A 1×1 PNG.
    private let png = [UInt8](Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!)

    private func makeLibrary(_ files: [String: String], in parent: URL? = nil) throws -> (LibraryWindow, URL) {
        let folder = (parent ?? makeFolder()).appendingPathComponent("Notes")
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let library = makeLibraryWindow(folder: folder)
        var started = false
        library.controller.start { started = true }
        XCTAssertTrue(spin(until: { started }))
        return (library, folder)
    }

    private func open(_ id: String, in library: LibraryWindow) {
        library.list.select(id, notify: true)
        XCTAssertTrue(spin(until: { library.controller.openID == id && library.openNote.editor.isShowingNote }))
    }

    private func attachments(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("attachments").path)) ?? []).sorted()
    }

    nonisolated func testPastingAPictureStoresAPNGAndLinksItOnItsOwnLineAsOneUndo() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["Work/a.md": "Hello"])
            open("Work/a.md", in: library)
            let editor = library.openNote.editor
            editor.buffer.cursorOffset = 2
            XCTAssertTrue(editor.textView.copyImageToClipboard(png: png))
            XCTAssertTrue(spin(until: { editor.textView.clipboardOffer.image }))
            XCTAssertFalse(editor.textView.clipboardOffer.text, "a picture alone on the clipboard is not text")
            editor.textView.paste()
            XCTAssertTrue(spin(until: { editor.buffer.text.contains("](") }, timeout: 10), editor.buffer.text)
            let names = attachments(folder)
            XCTAssertEqual(names.count, 1)
            let name = try XCTUnwrap(names.first)
            XCTAssertTrue(name.hasPrefix("pasted-") && name.hasSuffix(".png"), name)
            let bytes = try Data(contentsOf: folder.appendingPathComponent("attachments/" + name))
            XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "PNG bytes")
            XCTAssertEqual(editor.buffer.text, "He\n![](../attachments/\(name))\nllo")
            // The note is saved with the link.
            let note = folder.appendingPathComponent("Work/a.md")
            XCTAssertTrue(spin(until: { (try? String(contentsOf: note, encoding: .utf8)) == editor.buffer.text }, timeout: 10))
            editor.buffer.undo()
            XCTAssertEqual(editor.buffer.text, "Hello", "one Ctrl+Z takes the whole insertion back")
        }
    }

    nonisolated func testPastingTextStillPastesTextAndAddsNoFile() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["a.md": "Hello"])
            open("a.md", in: library)
            let editor = library.openNote.editor
            editor.buffer.cursorOffset = 5
            editor.textView.copyToClipboard(" world")
            XCTAssertTrue(spin(until: { editor.textView.clipboardOffer.text }))
            editor.textView.paste()
            XCTAssertTrue(spin(until: { editor.buffer.text == "Hello world" }), editor.buffer.text)
            XCTAssertEqual(attachments(folder), [])
        }
    }

    nonisolated func testDroppedFilesAreCopiedAndLinkedAtTheDropPointAsOneUndo() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["a.md": "Top\nBottom"])
            open("a.md", in: library)
            let editor = library.openNote.editor
            let outside = makeFolder()
            let report = outside.appendingPathComponent("Report 2026.pdf")
            let picture = outside.appendingPathComponent("photo.png")
            try Data("%PDF-1.4 report".utf8).write(to: report)
            try Data(png).write(to: picture)
            XCTAssertTrue(editor.attachments.add([.file(report), .file(picture)], at: 3))
            XCTAssertTrue(spin(until: { editor.attachments.pending == 0 }, timeout: 10))
            XCTAssertEqual(editor.buffer.text, "Top\n[Report 2026.pdf](attachments/Report%202026.pdf)\n![](attachments/photo.png)\nBottom")
            XCTAssertEqual(attachments(folder), ["Report 2026.pdf", "photo.png"])
            XCTAssertTrue(FileManager.default.fileExists(atPath: report.path), "copied, never moved")
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("attachments/photo.png")), Data(png))
            editor.buffer.undo()
            XCTAssertEqual(editor.buffer.text, "Top\nBottom")
        }
    }

    nonisolated func testFilesCopiedInAFileManagerPasteAsAttachments() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["a.md": "List"])
            open("a.md", in: library)
            let editor = library.openNote.editor
            editor.buffer.cursorOffset = 4
            let source = makeFolder().appendingPathComponent("notes (v2).txt")
            try Data("words".utf8).write(to: source)
            editor.textView.copyFilesToClipboard(paths: [source.path])
            XCTAssertTrue(spin(until: { editor.textView.clipboardOffer.files }))
            editor.textView.paste()
            XCTAssertTrue(spin(until: { editor.buffer.text != "List" && editor.attachments.pending == 0 }, timeout: 10))
            XCTAssertEqual(editor.buffer.text, "List\n[notes (v2).txt](attachments/notes%20%28v2%29.txt)")
            XCTAssertEqual(attachments(folder), ["notes (v2).txt"])
            XCTAssertTrue(FileManager.default.fileExists(atPath: source.path))
        }
    }

    nonisolated func testAFileThatCannotBeCopiedIsSaidAndLeavesNoFileAndNoLink() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["a.md": "Text"])
            open("a.md", in: library)
            let editor = library.openNote.editor
            let outside = makeFolder()
            let good = outside.appendingPathComponent("good.txt")
            try Data("fine".utf8).write(to: good)
            let fifo = outside.appendingPathComponent("pipe")
            XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
            let gone = outside.appendingPathComponent("vanished.pdf")
            for sources in [[AttachmentInserter.Source.file(good), .file(fifo)], [.file(gone)]] {
                let before = library.top.received.count
                XCTAssertTrue(editor.attachments.add(sources, at: 0))
                XCTAssertTrue(spin(until: { editor.attachments.pending == 0 }, timeout: 10), "a FIFO never blocks the copy")
                XCTAssertEqual(library.top.received.count, before + 1, "the failure reaches the error chain")
                XCTAssertEqual(editor.buffer.text, "Text", "no link")
                XCTAssertEqual(attachments(folder), [], "no file, not even the one that copied")
            }
        }
    }

    /// A full disk (a real tmpfs): the dialog names the file and the cause, nothing is left
    /// behind, and Try Again — once there is room — adds it where the user asked.
    nonisolated func testAFullDiskIsSaidAndTryAgainAddsTheFileOnceThereIsRoom() throws {
        try MainActor.assumeIsolated {
            let disk = try SmallDisk(kilobytes: 512)
            let (library, folder) = try makeLibrary(["a.md": "Trip\nPhotos:"], in: disk.url)
            open("a.md", in: library)
            let editor = library.openNote.editor
            let photo = makeFolder().appendingPathComponent("summit photo.jpg")
            try Data(repeating: 0xAB, count: 200 * 1024).write(to: photo)
            let filler = disk.url.appendingPathComponent("filler")
            try Data(repeating: 0, count: 400 * 1024).write(to: filler)

            XCTAssertTrue(editor.attachments.add([.file(photo)], at: editor.buffer.characterCount))
            XCTAssertTrue(spin(until: { library.top.presenter.isPresenting }, timeout: 10), "the full disk is said")
            let dialog = try XCTUnwrap(library.top.presenter.dialog)
            XCTAssertEqual(dialog.text, "“summit photo.jpg” could not be added to the note")
            XCTAssertTrue(dialog.secondaryText.lowercased().contains("space"), dialog.secondaryText)
            XCTAssertEqual((0..<2).compactMap { dialog.buttonLabel(for: $0) }, ["Try Again", "Cancel"])
            XCTAssertEqual(editor.buffer.text, "Trip\nPhotos:", "no link")
            XCTAssertEqual(attachments(folder), [], "no partial file")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("tmp") }, [], "no temporary")

            try FileManager.default.removeItem(at: filler)
            library.top.presenter.choose(0)  // Try Again
            XCTAssertTrue(spin(until: { editor.attachments.pending == 0 && editor.buffer.text.contains("](") }, timeout: 10), editor.buffer.text)
            XCTAssertEqual(editor.buffer.text, "Trip\nPhotos:\n![](attachments/summit%20photo.jpg)")
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("attachments/summit photo.jpg")), try Data(contentsOf: photo))
            XCTAssertFalse(library.top.presenter.isPresenting)
            library.window.destroy()
        }
    }

    /// Moving a note into a notebook in the window: its own picture link is written for its new
    /// folder at once, and a link to it in another note follows it right after.
    nonisolated func testMovingANoteInTheWindowKeepsItsLinksAndLinksToItWorking() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["plan.md": "Plan\n![](attachments/map.png)", "index.md": "Index\nSee [the plan](plan.md).",
                                                     "Work/.keep.md": ""])
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("attachments"), withIntermediateDirectories: true)
            try Data(png).write(to: folder.appendingPathComponent("attachments/map.png"))
            library.controller.notebooks.move("plan.md", to: "Work")
            let moved = folder.appendingPathComponent("Work/plan.md")
            let index = folder.appendingPathComponent("index.md")
            XCTAssertTrue(spin(until: { (try? String(contentsOf: moved, encoding: .utf8)) == "Plan\n![](../attachments/map.png)" }, timeout: 10))
            XCTAssertTrue(spin(until: { (try? String(contentsOf: index, encoding: .utf8)) == "Index\nSee [the plan](Work/plan.md)." }, timeout: 10),
                          (try? String(contentsOf: index, encoding: .utf8)) ?? "")
        }
    }

    nonisolated func testANoteLeftBeforeTheCopyEndsIsNotEditedAndTheCopyIsRemoved() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["a.md": "Alpha", "b.md": "Beta"])
            open("a.md", in: library)
            let editor = library.openNote.editor
            var notices: [String] = []
            editor.attachments.onNotice = { notices.append($0) }
            let source = makeFolder().appendingPathComponent("later.txt")
            try Data("later".utf8).write(to: source)
            let hold = DispatchSemaphore(value: 0)
            editor.attachments.queue.async { hold.wait() }
            XCTAssertTrue(editor.attachments.add([.file(source)], at: 5))
            open("b.md", in: library)
            hold.signal()
            XCTAssertTrue(spin(until: { editor.attachments.pending == 0 }, timeout: 10))
            XCTAssertEqual(editor.buffer.text, "Beta", "the note shown now is not edited")
            XCTAssertTrue(spin(until: { self.attachments(folder).isEmpty }), "the copy is removed")
            XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("a.md"), encoding: .utf8), "Alpha")
            XCTAssertTrue(notices.contains { $0.contains("later.txt") }, "\(notices)")
        }
    }

    nonisolated func testOpeningLinksOpensNotesAndFilesAsksForProgramsAndRefusesWaysOut() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["Work/a.md": "Links", "b.md": "Beta"])
            open("Work/a.md", in: library)
            let links = library.openNote.editor.links!
            var desktop: [String] = []
            links.showOnDesktop = { desktop.append($0) }
            var notices: [String] = []
            links.onNotice = { notices.append($0) }
            var openedNotes: [String] = []
            links.onOpenNote = { id, _ in openedNotes.append(id) }
            let store = folder.appendingPathComponent("attachments")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            try Data("%PDF-1.4".utf8).write(to: store.appendingPathComponent("Report 2026.pdf"))
            try Data("#!/bin/sh\necho hi\n".utf8).write(to: store.appendingPathComponent("run.sh"))
            try Data("[Desktop Entry]\nType=Application\nExec=true\n".utf8).write(to: store.appendingPathComponent("app.desktop"))
            try Data("just words".utf8).write(to: store.appendingPathComponent("plain.bin"))
            chmod(store.appendingPathComponent("plain.bin").path, 0o700)  // an exec bit
            try FileManager.default.createSymbolicLink(atPath: store.appendingPathComponent("out").path, withDestinationPath: "/etc/passwd")

            XCTAssertTrue(links.open("../b.md"))
            XCTAssertEqual(openedNotes, ["b.md"])

            XCTAssertTrue(links.open("../attachments/Report%202026.pdf"))
            let pdf = store.appendingPathComponent("Report 2026.pdf").standardizedFileURL
            XCTAssertEqual(desktop, [pdf.absoluteString])

            XCTAssertTrue(links.open("../attachments/missing.png"))
            XCTAssertEqual(notices.last, "“missing.png” is not in the library")

            for runnable in ["run.sh", "app.desktop", "plain.bin"] {
                desktop = []
                XCTAssertTrue(links.open("../attachments/" + runnable))
                let question = try XCTUnwrap(links.question, "asks before opening \(runnable)")
                XCTAssertEqual(question.text, "Open “\(runnable)”?")
                question.respond(0)  // Cancel, the default
                XCTAssertEqual(desktop, [], "\(runnable) not opened on Cancel")
            }
            XCTAssertTrue(links.open("../attachments/run.sh"))
            try XCTUnwrap(links.question).respond(1)
            XCTAssertEqual(desktop, [store.appendingPathComponent("run.sh").standardizedFileURL.absoluteString])

            desktop = []
            for refused in ["file:///etc/passwd", "/etc/passwd", "../../../etc/passwd", "../attachments/out", "..%2F..%2Fetc%2Fpasswd", "javascript:alert(1)"] {
                XCTAssertFalse(links.open(refused), refused)
                XCTAssertTrue(links.tooltip(for: refused).contains("Not opened:"), refused)
            }
            XCTAssertEqual(desktop, [], "nothing refused reaches the desktop")
            XCTAssertTrue(links.tooltip(for: "../b.md").contains("Ctrl+click to open"))
            XCTAssertTrue(links.tooltip(for: "https://example.org").contains("Ctrl+click to open"))
        }
    }

    nonisolated func testRemoveUnusedAttachmentsListsAsksAndRemovesOnlyUnusedFiles() throws {
        try MainActor.assumeIsolated {
            let (library, folder) = try makeLibrary(["a.md": "![](attachments/used.png)"])
            let store = folder.appendingPathComponent("attachments")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            for name in ["used.png", "old one.pdf"] { try Data(png).write(to: store.appendingPathComponent(name)) }
            let unused = UnusedAttachments()
            var toasts: [String] = []
            var finished = false
            unused.onFinished = { finished = true }
            unused.run(library: folder, parent: library.window, responder: library.top) { toasts.append($0) }
            let dialog = try XCTUnwrap({ spin(until: { unused.dialog != nil }); return unused.dialog }())
            XCTAssertEqual(dialog.text, "Remove 1 unused attachment?")
            dialog.respond(1)
            XCTAssertTrue(spin(until: { finished }))
            XCTAssertEqual(attachments(folder), ["used.png"])
            XCTAssertEqual(toasts, ["1 unused attachment removed"])
            finished = false
            unused.run(library: folder, parent: library.window, responder: library.top) { toasts.append($0) }
            XCTAssertTrue(spin(until: { finished }))
            XCTAssertNil(unused.dialog)
            XCTAssertEqual(toasts.last, "No unused attachments")
        }
    }
}
