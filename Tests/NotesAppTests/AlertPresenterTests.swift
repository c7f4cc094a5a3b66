import Gtk
import XCTest
@testable import NotesApp

final class AlertPresenterTests: AppTestCase {
    func testOneDialogAtATimeDuplicatesMergedChoicesRun() {
        let window = Window()
        window.present()
        defer { window.destroy() }
        let alerts = AlertPresenter(parent: window)
        var chosen: [String] = []
        alerts.present(title: "First", detail: "one", choices: [.init("Retry") { chosen.append("retry") }, .init("Cancel")])
        alerts.present(title: "Second", detail: "two")
        alerts.present(title: "Second", detail: "two")
        XCTAssertEqual(alerts.currentTitle, "First")
        alerts.choose(0)
        XCTAssertEqual(chosen, ["retry"])
        XCTAssertEqual(alerts.currentTitle, "Second")
        alerts.choose(0)
        XCTAssertFalse(alerts.isPresenting, "the duplicate was merged, nothing left")
    }
}
