import Foundation
@testable import Gtk
import TestSupport
import XCTest

/// Windows closed by GTK's own path (`close()`, Escape handlers, the title bar's ×) while their
/// wrapper is still held end in "destroy", every time (issue #12: Preferences could not be
/// closed the second time it was opened), and a close-request handler can still keep one open.
final class WindowLifecycleTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func cycle(_ name: String, _ make: () -> Window) {
        for round in 1...3 {
            let window = make()  // held, as an owner holds its window while it is shown
            var destroyed = 0
            window.onDestroy { _ in destroyed += 1 }
            window.present()
            XCTAssertTrue(window.isToplevel)
            window.close()
            XCTAssertTrue(spin(until: { destroyed == 1 }), "\(name), round \(round): closing never reached destroy")
            XCTAssertFalse(window.isToplevel, "\(name), round \(round): still a toplevel")
            _ = spin(until: { false }, timeout: 0.05)
            XCTAssertEqual(destroyed, 1, "\(name): destroyed once")
        }
    }

    nonisolated func testEveryKindOfWindowClosesAgainAndAgainWhileItsWrapperIsHeld() {
        MainActor.assumeIsolated {
            cycle("Window") { Window() }
            cycle("MessageDialog") { MessageDialog(parent: nil, text: "Something failed", secondaryText: "Why") }
            cycle("AboutDialog") { AboutDialog() }
            cycle("ShortcutsWindow") { ShortcutsWindow(groups: [ShortcutsWindow.Group("General", [.init("Quit", accelerator: "<Control>q")])], names: .init(sections: "Sections", searchButton: "Search", searchEntry: "Search Shortcuts")) }
        }
    }

    nonisolated func testACloseRequestHandlerThatKeepsTheWindowOpenIsObeyed() {
        MainActor.assumeIsolated {
            let window = Window()
            var destroyed = false
            window.onDestroy { _ in destroyed = true }
            window.onCloseRequest { _ in true }  // e.g. "Save changes?" first
            window.present()
            window.close()
            _ = spin(until: { destroyed }, timeout: 0.3)
            XCTAssertFalse(destroyed)
            XCTAssertTrue(window.isToplevel)
            window.destroy()
            XCTAssertTrue(destroyed)
        }
    }
}
