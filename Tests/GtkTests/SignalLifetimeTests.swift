import Gtk
import TestSupport
import XCTest

final class SignalLifetimeTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testHandlerBoxIsReleasedWhenItsWindowIsDestroyed() {
        MainActor.assumeIsolated {
            var released = false
            var window: Window? = Window()
            do {
                let sentinel = Sentinel { released = true }
                window?.onCloseRequest { _ in sentinel.touch(); return false }
            }
            XCTAssertFalse(released, "the box holds the handler while connected")
            window?.destroy()
            XCTAssertTrue(spin(until: { released }), "GLib's destroy-notify released the box at dispose")
            window = nil
        }
    }

    nonisolated func testChildHandlerBoxIsReleasedAfterItsWindowGoes() {
        MainActor.assumeIsolated {
            var released = false
            var window: Window? = Window()
            do {
                let button = Button(label: "Press")
                let sentinel = Sentinel { released = true }
                button.onClicked { _ in sentinel.touch() }
                window?.child = button
            }
            window?.present()
            XCTAssertFalse(released)
            window?.destroy()
            window = nil
            XCTAssertTrue(spin(until: { released }), "the button and its handler are freed with the window")
        }
    }

    nonisolated func testWrapperLivesWhileGtkHoldsItsWidgetSoHandlersKeepWorking() {
        MainActor.assumeIsolated {
            let box = Box(.vertical)
            var clicks = 0
            weak var weakButton: Button?
            do {
                let button = Button(label: "Press")
                button.onClicked { _ in clicks += 1 }
                box.append(button)
                weakButton = button
            }
            _ = spin(until: { false }, timeout: 0.05)
            XCTAssertNotNil(weakButton, "a parented widget keeps its wrapper alive")
            weakButton?.click()
            XCTAssertEqual(clicks, 1)
            if let button = weakButton { box.remove(button) }
            XCTAssertTrue(spin(until: { weakButton == nil }), "unparented and unused: the wrapper goes")
        }
    }

    nonisolated func testDisconnectReleasesTheBoxAndStopsTheHandler() {
        MainActor.assumeIsolated {
            let button = Button(label: "Press")
            var released = false
            var clicks = 0
            var connection: SignalConnection?
            do {
                let sentinel = Sentinel { released = true }
                connection = button.onClicked { _ in sentinel.touch(); clicks += 1 }
            }
            button.click()
            button.disconnect(connection!)
            button.click()
            XCTAssertEqual(clicks, 1)
            XCTAssertTrue(released)
        }
    }

    nonisolated func testHandlerReceivesItsOwnWrapper() {
        MainActor.assumeIsolated {
            let button = Button(label: "Before")
            button.onClicked { button in button.label = "After" }
            button.click()
            XCTAssertEqual(button.label, "After")
        }
    }

    /// The acceptance tests' wait for a click pressed through AT-SPI: every button's click is
    /// reported, with its label, before the button's own handlers (a dialog's OK closes it).
    nonisolated func testEveryClickIsReportedBeforeTheButtonsHandlers() {
        MainActor.assumeIsolated {
            var events: [String] = []
            Button.onEveryClick { label in events.append("reported \(label)") }
            let ok = Button(label: "OK"), icon = Button(iconName: "edit-find-symbolic")
            ok.onClicked { _ in events.append("handled OK") }
            ok.click()
            icon.click()
            XCTAssertEqual(events, ["reported OK", "handled OK", "reported "])
        }
    }
}
