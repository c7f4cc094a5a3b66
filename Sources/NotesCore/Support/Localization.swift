import Glibc
import Foundation
import Synchronization

/// Notula's translations: gettext catalogs `notula` (po/*.po, built into
/// `LOCALEDIR/LANG/LC_MESSAGES/notula.mo`), read by `MessageCatalog` rather than glibc, so the
/// language the user asked for (LANGUAGE, else LC_ALL, LC_MESSAGES, LANG) is the one shown even
/// where no locale for it is generated. Every user-visible string goes through `tr` or `trn`,
/// whose arguments are string literals (`StaticString`), so `make pot` (xgettext) finds them all
/// and no interpolated piece slips past translation. Placeholders are C-format (`%s`, `%d`,
/// `%1$s` to reorder), which `msgfmt --check` verifies in every translation.
public enum Localization: Sendable {
    public static let domain = "notula"

    /// Picks the user's language and reads its catalog; once, before the first string is shown
    /// (and before GTK starts, which then leaves the locale alone).
    /// The catalogs are looked up in `NOTULA_LOCALEDIR` when set, else — for a binary built in
    /// the source tree — in the tree's `build/locale` (`make translations`), else in
    /// `share/locale` beside the installed binary's `bin/`.
    public static func start(environment: [String: String] = ProcessInfo.processInfo.environment) {
        setlocale(LC_ALL, "")
        // GTK's own strings (dialog buttons) go through glibc, which ignores LANGUAGE under the
        // "C" locale; "C.UTF-8" honours it up to glibc 2.40.
        if let messages = setlocale(LC_MESSAGES, nil).map({ String(cString: $0) }),
           messages == "C" || messages == "POSIX", !(environment["LANGUAGE"] ?? "").isEmpty {
            setlocale(LC_MESSAGES, "C.UTF-8")
        }
        let found = MessageCatalog.find(domain: domain, in: localeDirectory(environment: environment),
                                        languages: languages(environment: environment))
        catalog.withLock { $0 = found }
        preferred.withLock { $0 = preferredLocale(environment: environment) }
    }

    private static let catalog = Mutex<MessageCatalog?>(nil)

    /// The languages asked for, first choice first: LANGUAGE's list, else the messages locale
    /// (none for C or POSIX: English).
    static func languages(environment: [String: String]) -> [String] {
        let list = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        if !list.isEmpty { return list }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let english = locale.isEmpty || locale == "C" || locale == "POSIX" || locale.hasPrefix("C.")
        return english ? [] : [locale]
    }

    /// The locale dates and times are written in: the first language of LANGUAGE when set
    /// (the language the window speaks), else the system's.
    public static var locale: Locale { preferred.withLock { $0 } }
    private static let preferred = Mutex(Locale.current)

    /// A count as the user's language writes it ("12,345"; German "12.345").
    public static func number(_ value: Int, locale: Locale = locale) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .decimal
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }

    static func localeDirectory(environment: [String: String]) -> String {
        if let folder = environment["NOTULA_LOCALEDIR"], !folder.isEmpty { return folder }
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // A binary built in the source tree (.build/…/notula) uses the tree's build/locale.
        var folder = binary.deletingLastPathComponent()
        for _ in 0..<4 {
            folder.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("po/LINGUAS").path) {
                return folder.appendingPathComponent("build/locale").path
            }
        }
        return binary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/locale").path
    }

    private static func preferredLocale(environment: [String: String]) -> Locale {
        guard let first = environment["LANGUAGE"]?.split(separator: ":").first, !first.isEmpty else {
            return .current
        }
        return Locale(identifier: String(first))
    }

    /// The translation of `msgid`, or `msgid` itself.
    public static func translate(_ msgid: String) -> String {
        catalog.withLock { $0?.translation(of: msgid) } ?? msgid
    }

    /// The form of `singular`/`plural` the language uses for `count` (English's when the
    /// catalog has no translation).
    public static func translate(_ singular: String, _ plural: String, count: Int) -> String {
        catalog.withLock { $0?.translation(of: singular, count: UInt64(max(0, count))) } ?? (count == 1 ? singular : plural)
    }

    /// The translation of `msgid` in `context` (gettext's `pgettext`: one English word, two
    /// meanings), or `msgid` itself.
    public static func translate(context: String, _ msgid: String) -> String {
        let key = context + "\u{4}" + msgid
        let translated = translate(key)
        return translated == key ? msgid : translated
    }

    /// The plural form in `context`, as `translate(_:_:count:)`.
    public static func translate(context: String, _ singular: String, _ plural: String, count: Int) -> String {
        let translated = translate(context + "\u{4}" + singular, context + "\u{4}" + plural, count: count)
        return translated.hasPrefix(context + "\u{4}") ? (count == 1 ? singular : plural) : translated  // none: English
    }

    /// Fills C-format placeholders: `%s` and `%d` take the arguments in order, `%1$s` names one;
    /// `%%` is a percent sign. Arguments are written with `description`.
    public static func format(_ template: String, _ arguments: [String]) -> String {
        var result = ""
        var next = 0
        var characters = template[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            characters = characters[characters.index(after: percent)...]
            if characters.first == "%" {
                result += "%"
                characters = characters.dropFirst()
                continue
            }
            var index = next
            let digits = characters.prefix(while: \.isNumber)
            if !digits.isEmpty, characters.dropFirst(digits.count).first == "$", let position = Int(digits) {
                index = position - 1
                characters = characters.dropFirst(digits.count + 1)
            } else {
                next += 1
            }
            characters = characters.drop(while: { "0123456789.-+ #'hlz".contains($0) })  // width, length
            guard let conversion = characters.first else {
                result += "%"
                break
            }
            characters = characters.dropFirst()
            if "sdiuc".contains(conversion), arguments.indices.contains(index) {
                result += arguments[index]
            } else {
                result += "%" + String(conversion)  // unknown: kept, never a crash
            }
        }
        return result + characters
    }
}

/// The translation of a user-visible string. `tr("Delete %s?", name)` fills placeholders.
public func tr(_ msgid: StaticString) -> String {
    Localization.translate(msgid.description)
}

public func tr(_ msgid: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    Localization.format(Localization.translate(msgid.description), arguments.map(\.description))
}

/// `tr` where the same English needs different translations: `trc("trash age", "%d days ago", n)`.
public func trc(_ context: StaticString, _ msgid: StaticString, _ arguments: any CustomStringConvertible...) -> String {
    Localization.format(Localization.translate(context: context.description, msgid.description), arguments.map(\.description))
}

/// `trn` in a context.
public func trnc(_ context: StaticString, _ singular: StaticString, _ plural: StaticString, _ count: Int,
                 _ arguments: any CustomStringConvertible...) -> String {
    let template = Localization.translate(context: context.description, singular.description, plural.description, count: count)
    return Localization.format(template, arguments.isEmpty ? [String(count)] : arguments.map(\.description))
}

/// A string with a count: `trn("%d note", "%d notes", count)` ("1 note", "3 notes"; German,
/// Polish… pick their own forms). Without further arguments the count fills the placeholders;
/// with them, they do (the count among them where the sentence shows it).
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int,
                _ arguments: any CustomStringConvertible...) -> String {
    let template = Localization.translate(singular.description, plural.description, count: count)
    return Localization.format(template, arguments.isEmpty ? [String(count)] : arguments.map(\.description))
}
