import Foundation
import NotesCore
import TestSupport
import XCTest

/// window.json is read from disk at every start: whatever it holds, the start goes on with
/// usable values (GTK takes `int`s, so an offset of 2^32 once killed every start), paths that
/// lead out of the library are dropped, and a file that does not decode is kept aside.
final class WindowStateTests: XCTestCase {
    private func load(_ json: String) throws -> (WindowState, TemporaryFolder) {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("window.json")
        try Data(json.utf8).write(to: url)
        return (WindowState.load(from: url), folder)
    }

    func testExtremeOffsetsAndSizesAreClampedToWhatGTKTakes() throws {
        let (state, _) = try load(#"{"width": 9223372036854775807, "height": -9223372036854775808, "sidebarWidth": 4294967296,"#
                                  + #" "isMaximized": true, "openNote": "a.md", "cursorOffset": -9223372036854775808, "topOffset": 4294967296,"#
                                  + #" "noteWindows": [{"path": "/home/u/n.md", "width": 4294967296, "height": -1}]}"#)
        XCTAssertEqual(state.width, 10_000)
        XCTAssertEqual(state.height, 300)
        XCTAssertEqual(state.cursorOffset, 0)
        XCTAssertEqual(state.topOffset, Int(Int32.max))
        XCTAssertLessThanOrEqual(state.sidebarWidth, state.width)
        XCTAssertEqual(state.noteWindows, [WindowState.NoteWindow(path: "/home/u/n.md", width: 10_000, height: 200)])
        XCTAssertEqual(state.openNote, "a.md")
    }

    func testPathsOutOfTheLibraryOrIntoItsOwnFilesAreDropped() throws {
        for openNote in ["../../etc/passwd.md", "/etc/passwd", ".notula/languages.txt", ".bashrc", "a/../../b.md", "Work/.hidden/n.md",
                         "a\u{0}b.md", "notes.txt.exe", String(repeating: "a/", count: 3000) + "n.md", "", "Work//n.md"] {
            let json = try JSONEncoder().encode(["openNote": openNote, "notebook": openNote])
            let (state, _) = try load(String(decoding: json, as: UTF8.self))
            XCTAssertNil(state.openNote, openNote)
        }
        let (kept, _) = try load(#"{"openNote": "Work/Trip plan.md", "notebook": "Work/Trips"}"#)
        XCTAssertEqual(kept.openNote, "Work/Trip plan.md")
        XCTAssertEqual(kept.notebook, "Work/Trips")
        let (typed, _) = try load(#"{"width": "wide", "height": 700, "openNote": 5, "cursorOffset": 1e400, "topOffset": 7}"#)
        XCTAssertEqual([typed.width, typed.height, typed.topOffset], [960, 700, 7], "a wrong type keeps only its own default")
        XCTAssertNil(typed.openNote)
        XCTAssertNil(typed.cursorOffset)
        let (windows, _) = try load(#"{"noteWindows": [{"path": "relative.md", "width": 500, "height": 500},"#
                                    + #" {"path": "/home/u/../../etc/x.md", "width": 500, "height": 500}, {"path": "/home/u/.bashrc", "width": 500, "height": 500},"#
                                    + #" {"path": "/home/u/ok.md", "width": 500, "height": 500}]}"#)
        XCTAssertEqual(windows.noteWindows?.map(\.path), ["/home/u/ok.md"])
    }

    /// Random damage: truncations, wrong types, NULs, huge numbers, other JSON — never a crash,
    /// always values GTK can take; a file that is no JSON object is kept aside as
    /// window.json.damaged. A value of the wrong type keeps its default, the others stay.
    func testRandomDamageNeverCrashesAndTheDamagedFileIsKeptAside() throws {
        var state = WindowState()
        state.openNote = "Work/a.md"
        state.cursorOffset = 12
        state.topOffset = 3
        state.noteWindows = [WindowState.NoteWindow(path: "/home/u/n.md", width: 600, height: 500)]
        let good = Array(try JSONEncoder().encode(state))
        var random = SystemRandomNumberGenerator()
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("window.json")
        var setAside = 0
        for _ in 0..<2_000 {
            let bytes = FileDamage.damaged(good, using: &random)
            try Data(bytes).write(to: url)
            unlink(url.path + ".damaged")
            let loaded = WindowState.load(from: url)
            XCTAssertTrue((360...10_000).contains(loaded.width) && (300...10_000).contains(loaded.height))
            XCTAssertTrue((0...Int(Int32.max)).contains(loaded.cursorOffset ?? 0) && (0...Int(Int32.max)).contains(loaded.topOffset ?? 0))
            if let note = loaded.openNote { XCTAssertTrue(LibraryNoteID.isWellFormed(note), note) }
            if let aside = FileManager.default.contents(atPath: url.path + ".damaged") {
                setAside += 1
                XCTAssertEqual(loaded, WindowState(), "set aside: the defaults")
                XCTAssertEqual(aside, Data(bytes), "kept aside as it was")
                XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
            } else {
                XCTAssertEqual(FileManager.default.contents(atPath: url.path), Data(bytes), "read, left as it was")
            }
        }
        XCTAssertGreaterThan(setAside, 100, "cut-off and broken files were among the rounds")
    }
}
