import Dispatch
import Foundation
import Gtk
import XCTest

/// What the posted work saw; written on the main thread only, read after the loop turned.
private final class Observation: @unchecked Sendable {
    var ranOnMain = false
    var ranInsideGLib = false
    var done = false
}

final class MainLoopBridgeTests: GtkTestCase {
    func testDispatchMainWorkFromABackgroundThreadRunsInsideTheGLibLoop() {
        let seen = Observation()
        DispatchQueue.global().async {
            DispatchQueue.main.async {
                seen.ranOnMain = Thread.isMainThread
                seen.ranInsideGLib = GtkRuntime.isInsideMainLoopDispatch
                seen.done = true
            }
        }
        XCTAssertTrue(spin(until: { seen.done }), "only the GLib loop turns here: the bridge must deliver it")
        XCTAssertTrue(seen.ranOnMain)
        XCTAssertTrue(seen.ranInsideGLib)
    }

    func testMainActorTaskFromABackgroundThreadRunsInsideTheGLibLoop() {
        let seen = Observation()
        Thread.detachNewThread {
            Task { @MainActor in
                seen.ranInsideGLib = GtkRuntime.isInsideMainLoopDispatch && Thread.isMainThread
                seen.done = true
            }
        }
        XCTAssertTrue(spin(until: { seen.done }))
        XCTAssertTrue(seen.ranInsideGLib)
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
