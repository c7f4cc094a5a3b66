import Dispatch
import Foundation
import Gtk
import XCTest

final class MainLoopBridgeTests: GtkTestCase {
    func testDispatchMainWorkFromABackgroundThreadRunsInsideTheGLibLoop() {
        var ranOnMain = false
        var ranInsideGLib = false
        var done = false
        DispatchQueue.global().async {
            DispatchQueue.main.async {
                ranOnMain = Thread.isMainThread
                ranInsideGLib = GtkRuntime.isInsideMainLoopDispatch
                done = true
            }
        }
        XCTAssertTrue(spin(until: { done }), "only the GLib loop turns here: the bridge must deliver it")
        XCTAssertTrue(ranOnMain)
        XCTAssertTrue(ranInsideGLib)
    }

    func testMainActorTaskFromABackgroundThreadRunsInsideTheGLibLoop() {
        var ranInsideGLib = false
        var done = false
        Thread.detachNewThread {
            Task { @MainActor in
                ranInsideGLib = GtkRuntime.isInsideMainLoopDispatch && Thread.isMainThread
                done = true
            }
        }
        XCTAssertTrue(spin(until: { done }))
        XCTAssertTrue(ranInsideGLib)
    }

    func testManyWakeUpsAreNotLost() {
        var count = 0
        let total = 2_000
        DispatchQueue.concurrentPerform(iterations: total) { _ in
            DispatchQueue.main.async { count += 1 }
        }
        XCTAssertTrue(spin(until: { count == total }))
    }
}
