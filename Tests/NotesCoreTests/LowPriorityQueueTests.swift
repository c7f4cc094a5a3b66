import Foundation
import NotesCore
import XCTest

final class LowPriorityQueueTests: XCTestCase {
    /// Work runs in order, on a thread whose nice value is 10 (below the main thread's).
    func testRunsInOrderBelowTheMainThread() {
        let queue = LowPriorityQueue(label: "test.low")
        let done = expectation(description: "ran")
        let lock = NSLock()
        var order: [Int] = []
        var nice: Int32 = 0
        for number in 0..<100 {
            queue.async {
                lock.lock()
                order.append(number)
                lock.unlock()
            }
        }
        queue.async {
            nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(order, Array(0..<100))
        XCTAssertEqual(nice, 10)
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), 0, "the caller keeps its priority")
    }
}
