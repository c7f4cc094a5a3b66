import CEnchant
import Foundation

/// The spelling dictionaries this system has, through Enchant 2 (a thin wrapper: no Markdown,
/// no GTK). Enchant chooses the provider per language (Hunspell here). The personal word list
/// (`~/.config/enchant/LANG.dic`, `ENCHANT_CONFIG_DIR` moves it) is shared with every other
/// Enchant application but read and written by `PersonalWordList`, never by Enchant (which
/// blocks on a FIFO there and reads any size): Enchant is pointed at a private folder
/// (`EnchantFolders`) and the user's words are given to each dictionary for the session.
///
/// Enchant is not thread-safe: each dictionary has a broker and a lock of its own, so loading
/// one language (tens of milliseconds, off the main thread) never holds up checks with
/// another; `state` guards only this object's tables and is never held during Enchant calls.
/// Checks are microseconds each, so the editor checks on the main thread in small slices.
public final class SpellingBroker: @unchecked Sendable {
    /// The one broker of the app (dictionaries are loaded once, then kept).
    public static let shared = SpellingBroker()

    /// The user's Enchant folder, where the personal word lists are.
    public let usersFolder: URL
    private let state = NSLock()
    /// Held by whoever lists the languages or loads a dictionary (one at a time); the main
    /// thread never takes it once `isReady` says yes.
    private let loading = NSLock()
    private var knownLanguages: [String]?
    private var dictionaries: [String: SpellingDictionary] = [:]
    private var missing: Set<String> = []
    private var problems: [String: PersonalWordList.Problem] = [:]

    public init() {
        usersFolder = EnchantFolders.takeOver()
    }

    /// The languages with a dictionary installed ("de_DE", "en_US"), sorted, each once; listed
    /// once (Enchant looks through every provider's folders).
    public var languages: [String] {
        if let known = state.withLock({ knownLanguages }) { return known }
        return loading.withLock {
            if let known = state.withLock({ knownLanguages }) { return known }
            var tags = Set<String>()
            if let broker = enchant_broker_init() {
                withUnsafeMutablePointer(to: &tags) { pointer in
                    enchant_broker_list_dicts(broker, { tag, _, _, _, data in
                        guard let tag, let data else { return }
                        data.assumingMemoryBound(to: Set<String>.self).pointee.insert(String(cString: tag))
                    }, pointer)
                }
                enchant_broker_free(broker)
            }
            let sorted = tags.sorted()
            state.withLock { knownLanguages = sorted }
            return sorted
        }
    }

    /// Whether asking for `languages` and `language`'s dictionary answers at once (both were
    /// looked up before): loading a Hunspell dictionary takes tens of milliseconds.
    public func isReady(_ language: String?) -> Bool {
        state.withLock { knownLanguages != nil && language.map { dictionaries[$0] != nil || missing.contains($0) } ?? true }
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

    /// Why `language`'s personal word list could not be read when its dictionary was loaded
    /// (Preferences says so), or nil.
    public func personalListProblem(_ language: String) -> PersonalWordList.Problem? {
        state.withLock { problems[language] }
    }

    /// The dictionary of `language` ("en_US"), loaded once; nil when none is installed.
    public func dictionary(for language: String) -> SpellingDictionary? {
        guard !language.isEmpty else { return nil }
        func known() -> (SpellingDictionary?, Bool) {
            state.withLock { (dictionaries[language], missing.contains(language)) }
        }
        if case let (dictionary, isMissing) = known(), dictionary != nil || isMissing { return dictionary }
        return loading.withLock {
            if case let (dictionary, isMissing) = known(), dictionary != nil || isMissing { return dictionary }
            let list = PersonalWordList(folder: usersFolder, language: language)
            EnchantFolders.prepare(for: language, usersFolder: usersFolder)
            guard let dictionary = SpellingDictionary.load(language, personalList: list) else {
                state.withLock { _ = missing.insert(language) }
                return nil
            }
            var problem: PersonalWordList.Problem?
            do {
                dictionary.acceptForSession(try list.words())
            } catch {
                problem = error as? PersonalWordList.Problem
            }
            state.withLock {
                dictionaries[language] = dictionary
                problems[language] = problem
            }
            return dictionary
        }
    }
}
