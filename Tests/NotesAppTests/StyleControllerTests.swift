import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// The dark style through the real GtkSettings: the choice in Preferences over the desktop's.
final class StyleControllerTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testChoiceOverridesTheDesktopAndFollowSystemFollowsIt() throws {
        try MainActor.assumeIsolated {
            let settings = try XCTUnwrap(Settings.forDefaultDisplay())
            let before = settings.prefersDarkTheme
            defer { settings.prefersDarkTheme = before }
            let style = StyleController(choice: .system, settings: settings, portal: nil)
            XCTAssertEqual(style.system, .noPreference, "no portal and the default theme: no preference")
            XCTAssertFalse(settings.prefersDarkTheme)

            style.systemChanged(to: .preferDark)
            XCTAssertTrue(settings.prefersDarkTheme, "Follow System follows the desktop to dark")
            style.choose(.light)
            XCTAssertFalse(settings.prefersDarkTheme, "Light wins over a dark desktop")
            style.systemChanged(to: .preferLight)
            style.choose(.dark)
            XCTAssertTrue(settings.prefersDarkTheme, "Dark wins over a light desktop")
            style.choose(.system)
            XCTAssertFalse(settings.prefersDarkTheme, "back to the desktop's light")
        }
    }

    nonisolated func testAStartingChoiceOfDarkIsAppliedAtOnce() throws {
        try MainActor.assumeIsolated {
            let settings = try XCTUnwrap(Settings.forDefaultDisplay())
            let before = settings.prefersDarkTheme
            defer { settings.prefersDarkTheme = before }
            settings.prefersDarkTheme = false
            _ = StyleController(choice: .dark, settings: settings, portal: nil)
            XCTAssertTrue(settings.prefersDarkTheme)
        }
    }
}
