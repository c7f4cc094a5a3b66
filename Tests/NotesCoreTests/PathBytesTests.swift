import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Names that are not UTF-8 ("caf\xe9.md", a notebook "Book\xff") are notes like any other:
/// listed, indexed, opened, edited and saved under their own bytes, moved to the Trash and
/// back, their notebook renamed — by their bytes, never by a lossy string. And the escapes
/// that carry such bytes round-trip every byte string.
@MainActor
final class PathBytesTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private var root: TemporaryFolder!

    nonisolated override func setUp() {
        MainActor.assumeIsolated { root = TemporaryFolder() }
    }

    /// The names of `folder` as the file system holds them, as bytes.
    private func rawNames(_ path: String) -> Set<[UInt8]> {
        var names = Set<[UInt8]>()
        guard let directory = PathBytes.withCString(path, { Glibc.opendir($0) }) else { return [] }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if name != [0x2E], name != [0x2E, 0x2E] { names.insert(name) }
        }
        return names
    }

    /// Writes a file or makes a folder named by raw bytes, as another program would.
    private func make(_ folder: String, _ name: [UInt8], text: String? = nil) {
        let path = Array(folder.utf8) + [0x2F] + name + [0]
        path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { pointer in
                if let text {
                    let fd = Glibc.open(pointer.baseAddress!, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
                    _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress!, $0.count - 1) }
                    Glibc.close(fd)
                } else {
                    Glibc.mkdir(pointer.baseAddress!, 0o700)
                }
            }
        }
    }

    private let cafe: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".md".utf8)
    private let book: [UInt8] = Array("Book".utf8) + [0xFF]
    /// A valid name holding a scalar of the escapes' own range (plane 16): must not be taken for one.
    private let plane16: [UInt8] = Array("own ".utf8) + Array("\u{10FFA9}".utf8) + Array(".md".utf8)

    nonisolated func testEveryByteStringRoundTripsAndIsShownWithReplacementCharacters() {
        MainActor.assumeIsolated {
            var random = SeededRandom(seed: 11)
            for _ in 0..<5000 {
                let bytes = (0..<random.next(upTo: 12)).map { _ in UInt8(1 + random.next(upTo: 255)) }
                let string = PathBytes.string(bytes)
                XCTAssertEqual(PathBytes.bytes(string), bytes, "\(bytes)")
                XCTAssertEqual(PathBytes.string(PathBytes.bytes(string)), string)
            }
            XCTAssertEqual(PathBytes.display(PathBytes.string(cafe)), "caf\u{FFFD}.md")
            XCTAssertEqual(PathBytes.repaired(PathBytes.string(cafe)), "café.md")
            XCTAssertEqual(PathBytes.repaired(PathBytes.string(Array("na".utf8) + [0x96] + Array("ve".utf8))), "na–ve", "Windows-1252")
            XCTAssertTrue(PathBytes.hasEscapes(PathBytes.string(book)))
            XCTAssertEqual(PathBytes.string(Array("Café".utf8)), "Café", "valid UTF-8 is itself")
            let own = PathBytes.string(plane16)
            XCTAssertTrue(PathBytes.hasEscapes(own), "escaped, so it cannot be taken for raw bytes")
            XCTAssertEqual(PathBytes.bytes(own), plane16)
            XCTAssertEqual(PathBytes.display(own), "own \u{10FFA9}.md")
        }
    }

    nonisolated func testNotesAndNotebooksThatAreNotUTF8AreListedIndexedOpenedSavedTrashedAndRenamed() throws {
        try MainActor.assumeIsolated {
            let folder = root.file("Notes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            make(folder.path, cafe, text: "Café plans\nmeet at noon")
            make(folder.path, book)
            make(folder.path, book + [0x2F] + cafe, text: "In the odd notebook")
            let bookName = PathBytes.string(book)
            make(folder.path, plane16, text: "Plane sixteen")

            let library = NoteLibrary(folder: folder)
            let cafeID = PathBytes.string(cafe)
            let insideID = bookName + "/" + cafeID
            let ownID = PathBytes.string(plane16)
            let scanned = try library.scanWithNotebooks()
            XCTAssertEqual(Set(scanned.notes.map(\.id)), [cafeID, insideID, ownID])
            XCTAssertTrue(scanned.notebooks.contains(bookName))
            XCTAssertEqual(scanned.notes.first { $0.id == cafeID }?.title, "Café plans")

            // The index lists and finds them.
            let index = try LibraryIndex(library: library, cacheFolder: root.file("cache"))
            _ = try index.reconcile { _ in }
            index.indexAllWaitingTexts()
            XCTAssertEqual(Set(index.summaries().map(\.id)), [cafeID, insideID, ownID])
            XCTAssertEqual(try index.matches("noon"), [cafeID])
            XCTAssertEqual(try index.matches("odd notebook"), [insideID])

            // Opened, edited and saved under its own bytes.
            let drafts = RecoveryDrafts(folder: root.file("drafts"))
            let document = NoteDocument(fileURL: folder.appendingPathComponent(cafeID), drafts: drafts, history: NoteHistory(folder: root.file("history")))
            let opened = expectation(description: "opened")
            document.open { ok in XCTAssertTrue(ok); opened.fulfill() }
            wait(for: [opened], timeout: 5)
            XCTAssertEqual(document.text, "Café plans\nmeet at noon")
            XCTAssertFalse(document.isReadOnly)
            document.contentProvider = { "Café plans\nmeet at one" }
            document.updateChangeCount(.done)
            try document.saveAndWait(timeout: 5)
            document.close()
            XCTAssertTrue(rawNames(folder.path).contains(cafe), "saved under its own name")
            XCTAssertFalse(rawNames(folder.path).contains(Array("caf\u{FFFD}.md".utf8)), "never under a lossy one")
            XCTAssertEqual(index.refresh([cafeID]).upserted.map(\.id), [cafeID])
            XCTAssertEqual(try index.matches("one"), [cafeID])

            // To the Trash and back, by its bytes.
            let trash = LibraryTrash(library: folder)
            let item = try trash.trash(relativePath: cafeID)
            XCTAssertFalse(rawNames(folder.path).contains(cafe))
            XCTAssertEqual(trash.items().first?.originalPath, cafeID, "the Trash's record keeps the bytes")
            XCTAssertEqual(try trash.restore(item), cafeID)
            XCTAssertTrue(rawNames(folder.path).contains(cafe))

            // The notebook renamed (to fix its name), its note with it.
            let notebooks = Notebooks(library: folder)
            let fixed = try notebooks.rename(bookName, to: PathBytes.repaired(bookName))
            XCTAssertEqual(fixed, "Bookÿ")
            XCTAssertTrue(rawNames(folder.path).contains(Array("Bookÿ".utf8)))
            XCTAssertTrue(rawNames(folder.path + "/Bookÿ").contains(cafe))
            // Into the Trash as a folder, and emptied.
            let folderItem = try trash.trash(relativePath: fixed)
            try trash.delete(folderItem, keepHistory: false)
            XCTAssertFalse(rawNames(folder.path).contains(Array("Bookÿ".utf8)))
        }
    }

    /// Rename to Fix: each name that is not UTF-8 gets the name its bytes meant, a note in a
    /// notebook that is renamed too included; a name taken gets " 2"; pins and history follow.
    nonisolated func testRenameToFixGivesEachNameWhatItsBytesMeantAndPinsAndHistoryFollow() throws {
        try MainActor.assumeIsolated {
            let folder = root.file("Notes")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            make(folder.path, cafe, text: "Top café")
            make(folder.path, book)
            make(folder.path, book + [0x2F] + cafe, text: "Inside")
            make(folder.path, Array("Bookÿ".utf8))  // the fixed name is taken already
            let library = NoteLibrary(folder: folder)
            let scanned = try library.scanWithNotebooks()
            let needed = NameRepair.needed(notes: scanned.notes.map(\.id), notebooks: scanned.notebooks)
            XCTAssertEqual(Set(needed), [PathBytes.string(cafe), PathBytes.string(book), PathBytes.string(book + [0x2F] + cafe)])
            let inside = PathBytes.string(book + [0x2F] + cafe)
            try PinnedNotes(library: folder).save([inside])
            let history = NoteHistory(folder: root.file("history"))
            history.record(of: folder.appendingPathComponent(inside), origin: .edited) { Data("Inside".utf8) }
            history.waitUntilIdle()

            let renamed = try NameRepair(library: folder, history: history).repair(needed)
            XCTAssertEqual(renamed.count, 3)
            XCTAssertEqual(rawNames(folder.path), [Array("café.md".utf8), Array("Bookÿ".utf8), Array("Bookÿ 2".utf8), Array(".notula".utf8)])
            XCTAssertEqual(rawNames(folder.path + "/Bookÿ 2"), [Array("café.md".utf8)])
            XCTAssertEqual(PinnedNotes(library: folder).load(), ["Bookÿ 2/café.md"])
            history.waitUntilIdle()
            XCTAssertEqual(try history.versions(of: folder.appendingPathComponent("Bookÿ 2/café.md")).count, 1, "the history followed")
            XCTAssertEqual(NameRepair.needed(notes: try library.scan().map(\.id), notebooks: library.notebooks()), [])
        }
    }

    /// A move of all notes carries names that are not UTF-8 by their bytes — to a folder on
    /// another file system (copied, verified), and back — and to exFAT, which refuses such
    /// names, as the name their bytes meant; nothing stays behind.
    nonisolated func testMovingAllNotesCarriesNamesThatAreNotUTF8() throws {
        try MainActor.assumeIsolated {
            let local = root.file("Notes")
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            make(local.path, cafe, text: "Café plans")
            make(local.path, book)
            make(local.path, book + [0x2F] + cafe, text: "Inside")
            make(local.path, Array("plain.md".utf8), text: "Plain")
            let state = TemporaryFolder()
            let disk = try SmallDisk(kilobytes: 4096)
            let synced = disk.url.appendingPathComponent("Notes")
            let there = LibraryMover(source: local, destination: synced, stateFolder: state.url)
            let plan = try there.preflight()
            XCTAssertFalse(plan.sameFileSystem)
            XCTAssertEqual(plan.renames, [], "a POSIX file system holds the names as they are")
            try there.run(plan)
            let plain: [UInt8] = Array("plain.md".utf8)
            XCTAssertEqual(rawNames(synced.path), [cafe, book, plain])
            XCTAssertEqual(rawNames(synced.path + "/" + PathBytes.string(book)), [cafe])
            XCTAssertEqual(rawNames(local.path), [], "nothing left behind")
            let back = LibraryMover(source: synced, destination: local, stateFolder: state.url)
            try back.run(try back.preflight())
            XCTAssertEqual(rawNames(local.path), [cafe, book, plain])
            XCTAssertEqual(RegularFile.contents(of: URL(fileURLWithPath: local.path + "/" + PathBytes.string(book) + "/" + PathBytes.string(cafe)), followLinks: false),
                           Data("Inside".utf8))

            // exFAT stores names as UTF-16: they arrive as what their bytes meant.
            let exfat = try FATDisk(.exfat)
            let stick = exfat.url.appendingPathComponent("Notes")
            let toStick = LibraryMover(source: local, destination: stick, stateFolder: state.url)
            let stickPlan = try toStick.preflight()
            XCTAssertTrue(stickPlan.traits.refusesNamesNotUTF8, "\(exfat.driver)")
            let targets = Set(stickPlan.renames.map(\.target))
            XCTAssertEqual(targets, Set(["café.md", "Bookÿ", "Bookÿ/café.md"]))
            try toStick.run(stickPlan)
            let fixedNames: Set<[UInt8]> = [Array("café.md".utf8), Array("Bookÿ".utf8), plain]
            XCTAssertEqual(rawNames(stick.path), fixedNames)
            XCTAssertEqual(rawNames(local.path), [])
        }
    }
}
