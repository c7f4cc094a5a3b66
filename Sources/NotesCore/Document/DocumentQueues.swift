import Foundation
import Synchronization

/// One serial queue per note file, shared by every document of that file. Closing a note saves
/// in the background while the same note may be opened again at once: with one queue per
/// file, the new document's read waits for the closing save's write, and two documents of one
/// file never write at the same time.
enum DocumentQueues {
    private static let queues = Mutex<[String: WeakQueue]>([:])

    /// The queue of the file at `url` (made when no living document holds one).
    static func queue(for url: URL) -> DispatchQueue {
        let key = url.standardizedFileURL.path
        let label = "notula.document.\(url.lastPathComponent)"
        return queues.withLock { queues in
            if let queue = queues[key]?.queue { return queue }
            let queue = DispatchQueue(label: label)
            if queues.count > 256 { queues = queues.filter { $0.value.queue != nil } }  // forget queues no document holds
            queues[key] = WeakQueue(queue: queue)
            return queue
        }
    }

    private struct WeakQueue: Sendable {
        weak var queue: DispatchQueue?
    }
}
