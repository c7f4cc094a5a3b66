import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A move of all notes to FAT or exFAT renames what the disk cannot hold ("a:b.png" →
/// "a_b.png", case-only twins, a notebook "Pro:jects"); the notes' links follow, so every link
/// of every note opens the same file afterwards — also when the move stopped half-way through
/// rewriting them. Needs root to mount (as in CI), else skipped.
final class FATMoveLinkTests: XCTestCase {
    /// Each attachment holds its own original name, so a link can be checked to open the right one.
    static let attachments = ["attachments/a:b.png", "attachments/Photo.PNG", "attachments/photo.png", "attachments/plain.png"]
    static let note = "# Pictures\n![](attachments/a:b.png) ![](attachments/Photo.PNG)\n![](attachments/photo.png) [p](attachments/plain.png)\n"
        + "<img src=\"attachments/photo.png\"> [z](./Pro:jects/z.md)\n\n[ref]: attachments/a%3Ab.png\n"
    static let inFolder = "[pic](../attachments/a:b.png) [twin](../attachments/photo.png) [home](../note.md)\n"

    func testLinksFollowWhatAMoveToFATRenames() throws {
        try moveAndCheck(FATDisk(.fat))
    }

    func testLinksFollowWhatAMoveToExFATRenames() throws {
        try moveAndCheck(FATDisk(.exfat))
    }

    private func moveAndCheck(_ disk: FATDisk) throws {
        guard disk.replacesFiles else { return try assertMoveIsRefused(to: disk) }
        let local = TemporaryFolder(), state = TemporaryFolder()
        let source = local.url.appendingPathComponent("Notes"), synced = disk.url.appendingPathComponent("Notes")
        var files = ["note.md": Self.note, "Pro:jects/z.md": Self.inFolder, "unrelated.md": "no links\n"]
        for path in Self.attachments { files[path] = path }
        for (path, text) in files {
            let url = source.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let old = Date(timeIntervalSince1970: 1_700_000_000)
        for path in ["note.md", "unrelated.md"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: source.appendingPathComponent(path).path)
        }

        let mover = LibraryMover(source: source, destination: synced, stateFolder: state.url)
        let plan = try mover.preflight()
        XCTAssertEqual(Set(plan.renames.map(\.source)), ["attachments/a:b.png", "attachments/photo.png", "Pro:jects"], disk.driver)
        try mover.run(plan)
        assertEveryLinkOpensItsFile(in: synced, disk.driver)
        let noteText = try String(contentsOf: synced.appendingPathComponent("note.md"), encoding: .utf8)
        XCTAssertTrue(noteText.hasPrefix("# Pictures\n![](attachments/a_b.png) ![](attachments/Photo.PNG)\n"), noteText)
        // The untouched note keeps its time; the rewritten one has the rewrite's, never an older
        // one set back (backups and rsync's quick check compare it; fusefat sets no times at all).
        let modified = { (path: String) in try FileManager.default.attributesOfItem(atPath: synced.appendingPathComponent(path).path)[.modificationDate] as? Date }
        if try modified("unrelated.md") == old { XCTAssertGreaterThan(try XCTUnwrap(modified("note.md")), old, "\(disk.driver): mtime not set back") }
        XCTAssertEqual(try String(contentsOf: synced.appendingPathComponent("unrelated.md"), encoding: .utf8), "no links\n")

        // Stopped half-way through the rewrites: one note rewritten, one not, the journal still
        // there. The next start finishes it; the rewritten note stays as it is.
        _ = try AtomicFileWriter.write(Data(Self.note.utf8), to: synced.appendingPathComponent("note.md"))
        try plan.journal.write(to: MoveJournal.url(in: state.url))
        let zPath = try XCTUnwrap(plan.journal.items.first { $0.source == "Pro:jects/z.md" }).target
        let zBefore = try Data(contentsOf: synced.appendingPathComponent(zPath))
        guard case .finished = LibraryMover.finishInterruptedMove(stateFolder: state.url) else { return XCTFail("not finished") }
        XCTAssertEqual(try String(contentsOf: synced.appendingPathComponent("note.md"), encoding: .utf8), noteText)
        XCTAssertEqual(try Data(contentsOf: synced.appendingPathComponent(zPath)), zBefore)
        assertEveryLinkOpensItsFile(in: synced, disk.driver)
    }

    /// Every relative link of every note opens the file it opened before the move (its bytes
    /// are its original path), or a note that is there.
    private func assertEveryLinkOpensItsFile(in library: URL, _ driver: String, line: UInt = #line) {
        let resolver = LibraryLinkResolver(library: library)
        var checked = 0
        try? AttachmentUsage(library: library).forEachNote { url, noteID in
            guard let text = NoteLinks.text(ofNoteAt: url) else { return XCTFail("unreadable \(noteID)", line: line) }
            let original = noteID.hasPrefix("Pro_jects") ? Self.inFolder : Self.note
            let originalAddresses = NoteLinks.addresses(in: original)
            let addresses = NoteLinks.addresses(in: text)
            guard noteID != "unrelated.md" else { return }
            XCTAssertEqual(addresses.count, originalAddresses.count, "\(driver) \(noteID)", line: line)
            for (address, was) in zip(addresses, originalAddresses) {
                switch resolver.resolve(address, from: NoteLocation(library: library, noteID: noteID)) {
                case .success(.file(let target)):
                    let wanted = LibraryLinkResolver.relativePath(of: was, fromFolder: noteID.hasPrefix("Pro_jects") ? "Pro:jects" : "")
                    XCTAssertEqual(try? String(contentsOf: target, encoding: .utf8), try? wanted.get(), "\(driver) \(noteID): \(was) → \(address)", line: line)
                case .success(.note(let id)):
                    XCTAssertTrue(FileSystem.exists(library.appendingPathComponent(id).path), "\(driver) \(noteID): \(address)", line: line)
                case .failure(let refusal):
                    XCTFail("\(driver) \(noteID): \(address) refused: \(refusal)", line: line)
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 10, driver, line: line)
    }
}
