import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Issue #48: today's note's title in the style Preferences chose, and its notebook: a typed
/// path cleaned or refused, made when missing (one made meanwhile by another program is fine).
final class TodaysNoteTests: XCTestCase {
    private let date = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, UTC
    private let utc = TimeZone(identifier: "UTC")!

    func testTitlesSayTheDateAsChosen() {
        let english = Locale(identifier: "en_US")
        XCTAssertEqual(TodaysNote.title(for: date, style: .iso, timeZone: utc, locale: english), "2026-11-18")
        XCTAssertEqual(TodaysNote.title(for: date, style: .long, timeZone: utc, locale: english), "November 18, 2026")
        XCTAssertEqual(TodaysNote.title(for: date, style: .full, timeZone: utc, locale: english), "Wednesday, November 18, 2026")
        XCTAssertEqual(TodaysNote.title(for: date, style: .long, timeZone: utc, locale: Locale(identifier: "de_DE")), "18. November 2026")
        var preferences = Preferences()
        preferences.todayTitle = "from a newer version"
        XCTAssertEqual(preferences.todayTitleStyle, .iso)
        let filled = NoteTemplate.fill("# {{date}}\n", templateID: "Templates/Today.md", notebook: "Journal", title: "November 18, 2026",
                                       titleFirst: true, date: date, dateText: "November 18, 2026", timeZone: utc)
        XCTAssertEqual(filled.text, "# November 18, 2026\n", "{{date}} as the title says it: no second title line")
    }

    func testNotebookPathsAreCleanedOrRefused() {
        XCTAssertEqual(TodaysNote.notebookPath(" /Work/ Journal /"), "Work/Journal")
        XCTAssertEqual(TodaysNote.notebookPath(""), "")
        XCTAssertEqual(TodaysNote.notebookPath("Work/attachments"), "Work/attachments", "a nested attachments folder is a notebook")
        for refused in [".hidden", "Work/../..", "..", "attachments", "~tmp", String(repeating: "x", count: 256),
                        Array(repeating: "a", count: 9).joined(separator: "/")] {
            XCTAssertNil(TodaysNote.notebookPath(refused), refused)
        }
    }

    func testTheNotebookIsMadeWhenMissingAndKeptWhenThere() throws {
        let folder = TemporaryFolder()
        try TodaysNote.prepare(notebook: "Journal/Daily", in: folder.url)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.file("Journal/Daily").path, isDirectory: &isFolder) && isFolder.boolValue)
        try Data("mine".utf8).write(to: folder.file("Journal/Daily/kept.md"))
        XCTAssertNoThrow(try TodaysNote.prepare(notebook: "Journal/Daily", in: folder.url), "there already: fine")
        XCTAssertEqual(try String(contentsOf: folder.file("Journal/Daily/kept.md"), encoding: .utf8), "mine")
        _ = try folder.write("Plain", "a file, not a folder")
        XCTAssertThrowsError(try TodaysNote.prepare(notebook: "Plain/Inside", in: folder.url))
    }
}
