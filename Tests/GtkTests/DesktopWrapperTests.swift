import Foundation
@testable import Gtk
import TestSupport
import XCTest

/// The wrappers of issue #7's desktop conventions: the shortcuts window built from builder XML,
/// About, GtkSettings and the settings portal over D-Bus.
final class DesktopWrapperTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testShortcutsWindowEscapesEveryWordOfItsBuilderXML() {
        MainActor.assumeIsolated {
            let groups = [ShortcutsWindow.Group("Cut & Paste <fast>", [
                .init("Copy \"this\"", accelerator: "<Control>c"),
                .init("Shortcuts", accelerator: "<Control>question"),
            ])]
            let xml = ShortcutsWindow.interfaceXML(groups)
            XCTAssertTrue(xml.contains("Cut &amp; Paste &lt;fast&gt;"), xml)
            XCTAssertTrue(xml.contains("&lt;Control&gt;question"), xml)
            XCTAssertTrue(xml.contains("Copy &quot;this&quot;"), xml)
            let window = ShortcutsWindow(groups: groups, names: .init(sections: "Choose a Section", searchButton: "Search", searchEntry: "Search Shortcuts"))  // GtkBuilder accepts it (a parse error stops the test)
            window.title = "Keyboard Shortcuts"
            XCTAssertEqual(window.title, "Keyboard Shortcuts")
            window.destroy()
        }
    }

    nonisolated func testAboutDialogKeepsWhatItIsGiven() {
        MainActor.assumeIsolated {
            let about = AboutDialog()
            about.programName = "Notula"
            about.version = "0.1.0"
            about.comments = "Plain-text notes"
            about.website = "https://github.com/notula/notula"
            about.logoIconName = "io.github.notula.Notula"
            about.setAuthors(["The Notula developers"])
            about.setLicense(.gpl3OrLater)
            XCTAssertEqual([about.programName, about.version, about.comments, about.website, about.logoIconName],
                           ["Notula", "0.1.0", "Plain-text notes", "https://github.com/notula/notula", "io.github.notula.Notula"])
            about.destroy()
        }
    }

    nonisolated func testPreferDarkThemeSettingRoundTrips() throws {
        try MainActor.assumeIsolated {
            let settings = try XCTUnwrap(Settings.forDefaultDisplay())
            let before = settings.prefersDarkTheme
            defer { settings.prefersDarkTheme = before }
            settings.prefersDarkTheme = !before
            XCTAssertEqual(settings.prefersDarkTheme, !before)
            XCTAssertNotNil(settings.themeName)
        }
    }

    /// scripts/with-display.sh gives a session bus without xdg-desktop-portal: the read must
    /// fail at once (the bus knows no such name), not wait for the timeout.
    nonisolated func testReadingWithoutAPortalGivesNilAtOnce() throws {
        try MainActor.assumeIsolated {
            let portal = try XCTUnwrap(SettingsPortal(), "no session bus: run under scripts/with-display.sh")
            let started = Date()
            XCTAssertNil(portal.readUnsigned(namespace: "org.freedesktop.appearance", key: "color-scheme", timeout: 5000))
            XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        }
    }

    nonisolated func testChangeHandlerIsReleasedWithThePortal() {
        MainActor.assumeIsolated {
            var released = false
            var portal = SettingsPortal()
            XCTAssertNotNil(portal, "no session bus: run under scripts/with-display.sh")
            do {
                let sentinel = Sentinel { released = true }
                portal?.onChange(namespace: "org.freedesktop.appearance", key: "color-scheme") { _ in sentinel.touch() }
            }
            XCTAssertFalse(released, "the subscription holds its handler")
            portal = nil
            XCTAssertTrue(spin(until: { released }), "unsubscribing released the handler (GLib's destroy-notify)")
        }
    }
}
