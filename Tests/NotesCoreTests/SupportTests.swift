import Foundation
import TestSupport
import XCTest
@testable import NotesCore

final class SupportTests: XCTestCase {
    func testXDGDirectoriesFollowTheEnvironment() {
        let dirs = XDGDirectories(environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "relative/ignored"])
        XCTAssertEqual(dirs.localLibrary.path, "/data/notula/Notes")
        XCTAssertEqual(dirs.appState.path, "/home/ann/.local/state/notula")
        XCTAssertEqual(dirs.appConfig.path, "/home/ann/.config/notula")
    }

    /// What the main thread lets go through `OffMainRelease` is freed on another thread, after it.
    func testALargeValueLetGoIsFreedAwayFromTheMainThread() {
        final class Tracked: Sendable {
            let freed: @Sendable (Bool) -> Void
            init(freed: @escaping @Sendable (Bool) -> Void) { self.freed = freed }
            deinit { freed(Thread.isMainThread) }
        }
        XCTAssertTrue(Thread.isMainThread)
        let done = expectation(description: "freed")
        let onMain = Shared<Bool?>(nil)
        do {
            let value = [Tracked { isMain in
                onMain.value = isMain
                done.fulfill()
            }]
            OffMainRelease.later(value)
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(onMain.value, false, "freed on the main thread")
    }

    func testRelativeTimes() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = RelativeTimeFormatter(calendar: calendar, locale: Locale(identifier: "en_US"))
        let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21 14:13 UTC
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-20), now: now), "Just now")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-60), now: now), "1 minute ago")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-300), now: now), "5 minutes ago")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-3 * 3600), now: now), "3 hours ago")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-86_400), now: now), "Yesterday")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-3 * 86_400), now: now), "3 days ago")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-30 * 86_400), now: now), "Aug 22, 2026")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-6 * 86_400), now: now), "6 days ago")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-7 * 86_400), now: now), "Sep 14, 2026")
        // The days are counted in midnights, and the same formatter follows `now` into a new day.
        let halfPastMidnight = Date(timeIntervalSince1970: 1_790_037_000)  // 2026-09-22 00:30 UTC
        XCTAssertEqual(formatter.string(for: halfPastMidnight.addingTimeInterval(-2 * 3600), now: halfPastMidnight), "Yesterday")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-3 * 3600), now: halfPastMidnight), "Yesterday")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-86_400), now: halfPastMidnight), "2 days ago")
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-3 * 3600), now: now), "3 hours ago", "and back")
    }

    /// Dates are formatted once per quarter hour: a quarter hour never spans two local days,
    /// also where the offset is not whole hours (Kathmandu, +5:45), so the day is never wrong.
    func testDatesFormattedOnceStillChangeAtLocalMidnight() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Kathmandu")!
        let formatter = RelativeTimeFormatter(calendar: calendar, locale: Locale(identifier: "en_US"))
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let midnight = calendar.startOfDay(for: now.addingTimeInterval(-30 * 86_400))
        let before = formatter.string(for: midnight.addingTimeInterval(-1), now: now)
        XCTAssertNotEqual(before, formatter.string(for: midnight, now: now))
        XCTAssertEqual(formatter.string(for: midnight.addingTimeInterval(-899), now: now), before, "the same day, formatted before")
        XCTAssertEqual(formatter.string(for: midnight.addingTimeInterval(600), now: now), formatter.string(for: midnight, now: now))
        XCTAssertEqual(formatter.string(for: now.addingTimeInterval(-5 * 3600 - 60), now: now),
                       formatter.string(for: now.addingTimeInterval(-5 * 3600 - 120), now: now))
    }

    func testWindowStateRoundTripsAndSurvivesDamage() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("state/window.json")
        XCTAssertEqual(WindowState.load(from: url), WindowState(), "missing file: defaults")
        var state = WindowState()
        state.width = 1000
        state.height = 700
        state.sidebarWidth = 280
        state.isMaximized = true
        try state.save(to: url)
        XCTAssertEqual(WindowState.load(from: url), state)
        try Data("{not json".utf8).write(to: url)
        XCTAssertEqual(WindowState.load(from: url), WindowState(), "damaged file: defaults, no crash")
        try Data(#"{"width": -5, "height": 99999, "isMaximized": false, "sidebarWidth": 1}"#.utf8).write(to: url)
        let clamped = WindowState.load(from: url)
        XCTAssertEqual(clamped.width, 360)
        XCTAssertEqual(clamped.height, 10_000)
        XCTAssertEqual(clamped.sidebarWidth, 180)
    }

    func testNoteFileNamesAreStableShapedAndUnique() {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let names = Set((0..<200).map { _ in NoteFileName.make(date: date) })
        XCTAssertGreaterThan(names.count, 195)
        for name in names { XCTAssertTrue(NoteLibrary.isNoteFileName(name), name) }
    }
}
