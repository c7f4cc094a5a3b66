import Foundation

/// Which dictionary checks a note: the user's language by default (LANGUAGE, then LC_ALL,
/// LC_MESSAGES, LANG), matched to the installed dictionaries; their
/// names in the user's own language; and the Debian package that brings a missing one.
public enum SpellingLanguage {
    /// The user's languages in order ("de_DE", "en"), from the environment: LANGUAGE first even
    /// under the C locale, as Notula's own translations take it (`Localization`).
    public static func preferred(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var tags: [String] = []
        if let list = environment["LANGUAGE"], !list.isEmpty {
            tags += list.split(separator: ":").map(String.init)
        }
        if let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) {
            tags.append(locale)
        }
        return tags.map(clean).filter { !$0.isEmpty && !isPlain($0) }
    }

    /// The installed dictionary for the first preferred language that has one, else English,
    /// else the first installed; nil when none is installed.
    public static func systemDefault(installed: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for tag in preferred(environment: environment) + ["en_US", "en"] {
            if let match = bestMatch(for: tag, installed: installed) { return match }
        }
        return installed.first
    }

    /// `tag` itself if installed, else the same language's dictionary ("de" → "de_DE",
    /// preferring the region named like the language).
    public static func bestMatch(for tag: String, installed: [String]) -> String? {
        if installed.contains(tag) { return tag }
        let language = String(tag.prefix { $0 != "_" && $0 != "-" })
        let same = installed.filter { $0 == language || $0.hasPrefix(language + "_") || $0.hasPrefix(language + "-") }
        return same.first { $0.lowercased() == "\(language)_\(language)" } ?? same.first
    }

    /// "German (Germany)" — in the user's language ("Deutsch (Deutschland)" under de_DE).
    public static func displayName(_ tag: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let user = preferred(environment: environment).first ?? "en_US"
        return Locale(identifier: user).localizedString(forIdentifier: tag) ?? tag
    }

    /// The languages in the order of their names as shown.
    public static func sortedByName(_ tags: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        tags.map { (tag: $0, name: displayName($0, environment: environment)) }
            .sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }.map(\.tag)
    }

    /// The Debian package with Hunspell's dictionary of `tag` ("de_DE" → "hunspell-de-de").
    public static func package(for tag: String) -> String {
        "hunspell-" + tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// "de_DE.UTF-8@euro" → "de_DE".
    private static func clean(_ tag: String) -> String {
        String(tag.prefix { $0 != "." && $0 != "@" })
    }

    private static func isPlain(_ locale: String) -> Bool {
        let tag = clean(locale)
        return tag == "C" || tag == "POSIX"
    }
}
