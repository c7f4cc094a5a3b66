import CEnchant
import Foundation

/// One language's dictionary (from `SpellingBroker`): check a word, suggest corrections, add a
/// word to the user's personal word list, ignore one for this run. Words are passed as they
/// are written, with typographic apostrophes (’) read as the dictionaries' own (').
///
/// It owns an Enchant broker of its own, and the lock every call to it takes.
public final class SpellingDictionary: @unchecked Sendable {
    public let language: String
    private let broker: OpaquePointer
    private let dict: OpaquePointer
    private let personalList: PersonalWordList
    private let lock = NSLock()

    private init(language: String, broker: OpaquePointer, dict: OpaquePointer, personalList: PersonalWordList) {
        self.language = language
        self.broker = broker
        self.dict = dict
        self.personalList = personalList
    }

    /// Loads `language`'s dictionary; nil when none is installed.
    static func load(_ language: String, personalList: PersonalWordList) -> SpellingDictionary? {
        guard let broker = enchant_broker_init() else { return nil }
        guard let dict = enchant_broker_request_dict(broker, language) else {
            enchant_broker_free(broker)
            return nil
        }
        return SpellingDictionary(language: language, broker: broker, dict: dict, personalList: personalList)
    }

    deinit {
        enchant_broker_free_dict(broker, dict)
        enchant_broker_free(broker)
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
    /// Enchant applications. Right for this run even when the list cannot be written (the
    /// error says why it will not last).
    public func add(_ word: String) throws {
        let word = Self.plain(word)
        guard !word.isEmpty else { return }
        acceptForSession([word])
        try personalList.append(word)
    }

    /// `add` off the calling thread (the list may wait a moment for another Enchant
    /// application's lock); `done` hears on the main queue why the word will not last, if so.
    public func add(_ word: String, then done: @escaping @MainActor @Sendable (Error?) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            let failure: Error?
            do { try self.add(word); failure = nil } catch { failure = error }
            DispatchQueue.main.async { done(failure) }
        }
    }

    /// Ignore All: right until the app quits, in every note.
    public func ignore(_ word: String) {
        acceptForSession([Self.plain(word)])
    }

    /// Words right until the app quits (ignored ones, and the personal list's).
    func acceptForSession(_ words: [String]) {
        lock.withLock {
            for word in words where !word.isEmpty {
                enchant_dict_add_to_session(dict, word, word.utf8.count)
            }
        }
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
