import Foundation
import TestSupport
import XCTest
@testable import NotesCore

final class AutosaveSchedulerTests: XCTestCase {
    func testSavesAfterTypingPausesForTheIdleDelay() {
        let scheduler = AutosaveScheduler(idleDelay: 1, maximumDelay: 5) {}
        let start = Date()
        scheduler.noteChanged(now: start)
        XCTAssertEqual(scheduler.scheduledDelay, 1)
        scheduler.noteChanged(now: start.addingTimeInterval(0.5))
        XCTAssertEqual(scheduler.scheduledDelay, 1, "each keystroke restarts the pause")
        scheduler.cancel()
    }

    func testContinuousTypingStillSavesWithinTheMaximumDelay() {
        let scheduler = AutosaveScheduler(idleDelay: 1, maximumDelay: 5) {}
        let start = Date()
        scheduler.noteChanged(now: start)
        scheduler.noteChanged(now: start.addingTimeInterval(4.5))
        XCTAssertEqual(scheduler.scheduledDelay!, 0.5, accuracy: 0.001)
        scheduler.noteChanged(now: start.addingTimeInterval(6))
        XCTAssertEqual(scheduler.scheduledDelay, 0, "overdue: save at once")
        scheduler.cancel()
    }

    func testFiresOnceOnTheMainQueue() {
        let fired = expectation(description: "autosave")
        var count = 0
        let scheduler = AutosaveScheduler(idleDelay: 0.05, maximumDelay: 1) {
            XCTAssertTrue(Thread.isMainThread)
            count += 1
            fired.fulfill()
        }
        scheduler.noteChanged()
        scheduler.noteChanged()
        wait(for: [fired], timeout: 5)
        XCTAssertEqual(count, 1)
        XCTAssertFalse(scheduler.isPending)
    }

    func testCancelStopsThePendingSave() {
        var fired = false
        let scheduler = AutosaveScheduler(idleDelay: 0.01, maximumDelay: 1) { fired = true }
        scheduler.noteChanged()
        scheduler.cancel()
        RunLoop.main.run(until: Date().addingTimeInterval(0.1))
        XCTAssertFalse(fired)
    }
}
