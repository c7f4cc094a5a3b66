import CEnchant
import Foundation

/// One language's dictionary (from `SpellingBroker`): check a word, suggest corrections, add a
/// word to the user's personal word list, ignore one for this run. Words are passed as they
/// are written, with typographic apostrophes (’) read as the dictionaries' own (').
public final class SpellingDictionary: @unchecked Sendable {
    public let language: String
    private let dict: OpaquePointer
    /// Owns `dict` and the lock every Enchant call takes.
    private let broker: SpellingBroker
    private var lock: NSLock { broker.lock }

    init(language: String, dict: OpaquePointer, broker: SpellingBroker) {
        self.language = language
        self.dict = dict
        self.broker = broker
    }

    /// Whether the word is spelled right (known, added or ignored). An error of the provider
    /// counts as right: a word is never marked for a reason that is not its spelling.
    public func isCorrect(_ word: String) -> Bool {
        let word = Self.plain(word)
        guard !word.isEmpty else { return true }
        return lock.withLock { enchant_dict_check(dict, word, word.utf8.count) <= 0 }
    }

    /// Up to `limit` corrections, best first.
    public func suggestions(for word: String, limit: Int = 5) -> [String] {
        let word = Self.plain(word)
        guard !word.isEmpty else { return [] }
        return lock.withLock {
            var count = 0
            guard let list = enchant_dict_suggest(dict, word, word.utf8.count, &count) else { return [] }
            defer { enchant_dict_free_string_list(dict, list) }
            var words: [String] = []
            for index in 0..<count where words.count < limit {
                if let suggestion = list[index] {
                    let text = String(cString: suggestion)
                    if !words.contains(text) { words.append(text) }
                }
            }
            return words
        }
    }

    /// Add to Dictionary: into the personal word list, kept across runs and shared with other
    /// Enchant applications.
    public func add(_ word: String) {
        let word = Self.plain(word)
        guard !word.isEmpty else { return }
        lock.withLock { enchant_dict_add(dict, word, word.utf8.count) }
    }

    /// Ignore All: right until the app quits, in every note.
    public func ignore(_ word: String) {
        let word = Self.plain(word)
        guard !word.isEmpty else { return }
        lock.withLock { enchant_dict_add_to_session(dict, word, word.utf8.count) }
    }

    /// Whether the user added the word (personal list or this run's ignored words).
    public func isAdded(_ word: String) -> Bool {
        let word = Self.plain(word)
        return lock.withLock { enchant_dict_is_added(dict, word, word.utf8.count) != 0 }
    }

    static func plain(_ word: String) -> String {
        word.replacingOccurrences(of: "\u{2019}", with: "'")
    }
}
