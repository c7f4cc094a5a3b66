import Foundation
import NotesCore
import TestSupport
import XCTest

final class LowPriorityQueueTests: XCTestCase {
    /// Work runs in order, on a thread whose nice value is 10 (below the main thread's).
    func testRunsInOrderBelowTheMainThread() {
        let queue = LowPriorityQueue(label: "test.low")
        let done = expectation(description: "ran")
        let order = Shared<[Int]>([])
        let nice = Shared<Int32>(0)
        for number in 0..<100 {
            queue.async { order.update { $0.append(number) } }
        }
        queue.async {
            nice.value = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(order.value, Array(0..<100))
        XCTAssertEqual(nice.value, 10)
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), 0, "the caller keeps its priority")
    }
}
