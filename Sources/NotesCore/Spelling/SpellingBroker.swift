import CEnchant
import Foundation

/// The spelling dictionaries this system has, through Enchant 2 (a thin wrapper: no Markdown,
/// no GTK). Enchant chooses the provider per language (Hunspell here) and keeps the personal
/// word list in `~/.config/enchant/LANG.dic` (`ENCHANT_CONFIG_DIR` moves it), so a word added
/// here is known to every other Enchant application, and theirs here.
///
/// Enchant is not thread-safe: every call goes through one lock, which the dictionaries share.
/// Checks are microseconds each, so the editor checks on the main thread in small slices.
public final class SpellingBroker: @unchecked Sendable {
    /// The one broker of the app (dictionaries are loaded once, then kept).
    public static let shared = SpellingBroker()

    let lock = NSLock()
    /// Enchant's broker, made at first use (it loads its provider modules): not at start.
    private var started = false
    private var enchantBroker: OpaquePointer?
    /// Loaded once, freed with the broker (each `SpellingDictionary` keeps its broker alive).
    private var dictionaries: [String: OpaquePointer] = [:]
    private var missing: Set<String> = []

    public init() {}

    deinit {
        guard let enchantBroker else { return }
        for dict in dictionaries.values { enchant_broker_free_dict(enchantBroker, dict) }
        enchant_broker_free(enchantBroker)
    }

    /// The broker, made the first time (call with the lock held).
    private var broker: OpaquePointer? {
        if !started {
            started = true
            enchantBroker = enchant_broker_init()
        }
        return enchantBroker
    }

    /// The languages with a dictionary installed ("de_DE", "en_US"), sorted, each once; listed
    /// once (Enchant looks through every provider's folders).
    public var languages: [String] {
        lock.withLock {
            if let knownLanguages { return knownLanguages }
            var tags = Set<String>()
            if let broker = self.broker {
                withUnsafeMutablePointer(to: &tags) { pointer in
                    enchant_broker_list_dicts(broker, { tag, _, _, _, data in
                        guard let tag, let data else { return }
                        data.assumingMemoryBound(to: Set<String>.self).pointee.insert(String(cString: tag))
                    }, pointer)
                }
            }
            knownLanguages = tags.sorted()
            return knownLanguages ?? []
        }
    }

    private var knownLanguages: [String]?

    /// Whether asking for `languages` and `language`'s dictionary answers at once (both were
    /// looked up before): loading a Hunspell dictionary takes tens of milliseconds.
    public func isReady(_ language: String?) -> Bool {
        lock.withLock { knownLanguages != nil && language.map { dictionaries[$0] != nil || missing.contains($0) } ?? true }
    }

    /// Lists the languages and loads `language`'s dictionary off the main thread, then calls
    /// `ready` on the main queue.
    public func prepare(_ language: String?, ready: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            _ = self.languages
            if let language { _ = self.dictionary(for: language) }
            DispatchQueue.main.async { ready() }
        }
    }

    /// The dictionary of `language` ("en_US"), loaded once; nil when none is installed.
    public func dictionary(for language: String) -> SpellingDictionary? {
        guard !language.isEmpty else { return nil }
        let dict: OpaquePointer? = lock.withLock {
            if let known = dictionaries[language] { return known }
            guard !missing.contains(language), let broker = self.broker else { return nil }
            guard let dict = enchant_broker_request_dict(broker, language) else {
                missing.insert(language)
                return nil
            }
            dictionaries[language] = dict
            return dict
        }
        return dict.map { SpellingDictionary(language: language, dict: $0, broker: self) }
    }
}
