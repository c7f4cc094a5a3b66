import Dispatch
import NotesCore

/// Asks the library index about links, titles and tags off the main thread (indexed lookups
/// of a few milliseconds, but a search may hold the connection meanwhile) and answers on the
/// main thread. Each kind of question keeps only its newest answer: one asked again before
/// the last came back drops the older.
final class LinkLookup {
    /// The index asked (the live library's, once listed).
    var index: () -> LibraryIndex? = { nil }
    private let queue = DispatchQueue(label: "notula.links", qos: .userInitiated)
    private var asked: [String: Int] = [:]

    /// Runs `question` on the index; `answer` gets its result unless `kind` was asked again since.
    func ask<T: Sendable>(_ kind: String, _ question: @escaping @Sendable (LibraryIndex) -> T, answer: @escaping @MainActor (T) -> Void) {
        guard let index = index() else { return }
        let serial = (asked[kind] ?? 0) + 1
        asked[kind] = serial
        queue.async {
            let result = question(index)
            DispatchQueue.main.async { [weak self] in
                guard let self, self.asked[kind] == serial else { return }
                answer(result)
            }
        }
    }
}
