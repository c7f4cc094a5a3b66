import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Every file Notula reads back, damaged at random (cut short, bytes flipped, extreme numbers,
/// wrong types, NULs, paths leading out): reading never crashes or hangs, gives defaults (or
/// skips the damaged entry), and never loses the damaged file — it is kept aside or left as it
/// was. (The window's session file: `WindowStateTests`.)
final class PersistedFilesFuzzTests: XCTestCase {
    private var random = SystemRandomNumberGenerator()
    private let rounds = 600

    private func files(in folder: URL) -> [Data] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .compactMap { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
    }

    func testDamagedPreferencesGiveDefaultsAndAreKeptAside() throws {
        var preferences = Preferences(storage: .synced, syncedFolder: "/home/ann/Sync/Notes", colorScheme: .dark)
        preferences.emptyTrashAfterDays = 7
        preferences.editorZoom = 120
        preferences.spellingLanguage = "de_DE"
        let good = Array(try JSONEncoder().encode(preferences))
        for round in 0..<rounds {
            let folder = TemporaryFolder()
            let store = PreferencesStore(configFolder: folder.url)
            let bytes = FileDamage.damaged(good, using: &random)
            try Data(bytes).write(to: store.url)
            let loaded = store.load(now: Date(timeIntervalSince1970: Double(round)))
            if loaded.problem != nil {
                XCTAssertTrue(files(in: folder.url).contains(Data(bytes)), "round \(round): the damaged file is gone")
            } else {
                XCTAssertEqual(FileManager.default.contents(atPath: store.url.path), Data(bytes), "read, left as it was")
            }
            _ = loaded.preferences.trashRetentionDays
            _ = loaded.preferences.libraryFolder(localLibrary: folder.url)
        }
    }

    func testADamagedMoveJournalMovesNothingAndIsKeptAside() throws {
        let journal = MoveJournal(source: "/home/ann/.local/share/notula/Notes", destination: "/home/ann/Sync/Notes",
                                  items: [.init(source: "a.md", target: "a.md", isSymlink: false),
                                          .init(source: "Work/b.md", target: "Work/b (2).md", isSymlink: false)],
                                  folders: ["Work"], folderTargets: ["Work"], started: Date(timeIntervalSince1970: 1_700_000_000),
                                  pins: ["a.md"])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let good = Array(try encoder.encode(journal))
        let folder = TemporaryFolder()
        let url = MoveJournal.url(in: folder.url)
        try Data(good).write(to: url)
        XCTAssertEqual(MoveJournal.read(from: url), .journal(journal))
        var damaged = 0
        for _ in 0..<rounds {
            let bytes = FileDamage.damaged(good, using: &random)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? [] {
                unlink(folder.url.appendingPathComponent(name).path)
            }
            try Data(bytes).write(to: url)
            switch MoveJournal.read(from: url) {
            case .journal(let read):
                XCTAssertTrue(read.isWellFormed)
                XCTAssertEqual(FileManager.default.contents(atPath: url.path), Data(bytes))
            case .damaged(let aside):
                damaged += 1
                XCTAssertEqual(FileManager.default.contents(atPath: aside), Data(bytes), "kept aside as it was")
                XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "set aside, so the next start does not trip on it")
            case .none:
                XCTFail("a journal that is there was not seen")
            }
        }
        XCTAssertGreaterThan(damaged, rounds / 4)
    }

    func testAJournalNamingPathsOutsideItsFoldersIsDamaged() throws {
        let folder = TemporaryFolder()
        let url = MoveJournal.url(in: folder.url)
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        let hostile = [
            MoveJournal(source: "/a", destination: "/b", items: [.init(source: "../../etc/passwd", target: "x.md", isSymlink: false)],
                        folders: [], started: started),
            MoveJournal(source: "/a", destination: "/b", items: [.init(source: "x.md", target: "/etc/passwd", isSymlink: false)],
                        folders: [], started: started),
            MoveJournal(source: "relative", destination: "/b", items: [], folders: [], started: started),
            MoveJournal(source: "/a", destination: "/b", items: [], folders: ["Work/../.."], started: started),
            MoveJournal(source: "/a", destination: "/b", items: [], folders: ["Work"], folderTargets: [], started: started),
        ]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        for journal in hostile {
            try encoder.encode(journal).write(to: url)
            guard case .damaged = MoveJournal.read(from: url) else { return XCTFail("accepted \(journal)") }
            XCTAssertEqual(LibraryMover.finishInterruptedMove(stateFolder: folder.url), .nothingToDo, "set aside: nothing left to do")
        }
    }

    func testDamagedDraftsAreSkippedAndLeftWhereTheyAre() throws {
        let folder = TemporaryFolder()
        let drafts = RecoveryDrafts(folder: folder.url)
        try drafts.save("Groceries\nmilk\r\n", for: URL(fileURLWithPath: "/home/ann/Notes/Groceries.md"), reason: "conflict",
                        encoding: NoteEncoding(lineEnding: .crlf, hasByteOrderMark: true))
        let file = try XCTUnwrap(drafts.entries().first?.file)
        let good = Array(try Data(contentsOf: file))
        for _ in 0..<rounds {
            let bytes = FileDamage.damaged(good, using: &random)
            try Data(bytes).write(to: file)
            for entry in drafts.entries() { _ = entry.draft.bytes }
            _ = drafts.draft(for: URL(fileURLWithPath: "/home/ann/Notes/Groceries.md"))
            XCTAssertEqual(FileManager.default.contents(atPath: file.path), Data(bytes), "a damaged draft is never removed")
        }
    }

    /// Files in the library itself, which a sync client brings from other devices.
    func testDamagedLibraryListsNeverCrashAndAreLeftAsTheyAre() throws {
        let library = TemporaryFolder()
        let pins = PinnedNotes(library: library.url), languages = NoteLanguages(library: library.url)
        try pins.save(["a.md", "Work/b.md"])
        try languages.set("de_DE", forNoteAt: "a.md")
        let goodPins = Array(try Data(contentsOf: pins.fileURL)), goodLanguages = Array(try Data(contentsOf: languages.fileURL))
        for _ in 0..<rounds {
            let pinBytes = FileDamage.damaged(goodPins, using: &random), languageBytes = FileDamage.damaged(goodLanguages, using: &random)
            try Data(pinBytes).write(to: pins.fileURL)
            try Data(languageBytes).write(to: languages.fileURL)
            _ = pins.load()
            _ = languages.load()
            _ = languages.language(ofNoteAt: "a.md")
            XCTAssertEqual(FileManager.default.contents(atPath: pins.fileURL.path), Data(pinBytes))
            XCTAssertEqual(FileManager.default.contents(atPath: languages.fileURL.path), Data(languageBytes))
        }
    }
}
