import Dispatch
import Foundation
import Gtk
import TestSupport
import XCTest

/// What the posted work saw: main-actor isolated (as this target is), so only work on the
/// main actor writes it.
private final class Observation {
    var ranOnMain = false
    var ranInsideGLib = false
    var done = false
}

final class MainLoopBridgeTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testDispatchMainWorkFromABackgroundThreadRunsInsideTheGLibLoop() {
        MainActor.assumeIsolated {
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
    }

    nonisolated func testMainActorTaskFromABackgroundThreadRunsInsideTheGLibLoop() {
        MainActor.assumeIsolated {
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
    }

    nonisolated func testManyWakeUpsAreNotLost() {
        MainActor.assumeIsolated {
            @MainActor final class Counter { var count = 0 }  // only the main queue's closures count
            let counter = Counter()
            let total = 2_000
            DispatchQueue.concurrentPerform(iterations: total) { _ in
                DispatchQueue.main.async { counter.count += 1 }
            }
            XCTAssertTrue(spin(until: { counter.count == total }))
        }
    }
}
