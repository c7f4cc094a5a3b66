import Foundation

/// What the user chose, in `$XDG_CONFIG_HOME/notula/preferences.json` (plain JSON, written
/// atomically). A missing file means "not chosen yet" (first launch asks); a damaged one gives
/// the defaults and a message, never a crash.
public struct Preferences: Codable, Equatable, Sendable {
    public enum Storage: String, Codable, Sendable {
        /// `$XDG_DATA_HOME/notula/Notes` on this computer.
        case local
        /// `syncedFolder`, kept in sync by a sync client.
        case synced
    }

    /// Where the notes live; nil until the user has chosen (the first launch asks).
    public var storage: Storage?
    /// The synced library folder (a `Notes` folder inside the sync client's folder).
    public var syncedFolder: String?
    /// Light or dark style; nil (files from before it existed) means follow the system.
    public var colorScheme: ColorScheme?
    /// Notes deleted more than this many days ago leave the Trash for good; 0 never; nil
    /// (not chosen) 30.
    public var emptyTrashAfterDays: Int?
    /// Whether the editor keeps lines at a readable length on wide windows; nil (not chosen) on.
    public var readableWidth: Bool?
    /// Whether notes' past versions are kept (`NoteHistory`); nil (not chosen) on.
    public var keepHistory: Bool?
    /// Whether the editor marks misspelled words; nil (not chosen) on.
    public var checkSpelling: Bool?
    /// The default spelling language ("de_DE"); nil (not chosen) the user's own language.
    public var spellingLanguage: String?
    /// Whether words in capitals (acronyms: NASA, GTK) are left unchecked; nil (not chosen) yes.
    public var spellingSkipsAllCaps: Bool?
    /// Whether the editor takes Vim's keys (GtkSourceView's Vim mode); nil (not chosen) no.
    public var vimKeys: Bool?
    /// The notebook today's note is made in ("Journal", "Work/Journal"); nil (not chosen) the top.
    public var todayNotebook: String?
    /// How today's note's title says the date (`TodaysNote.TitleStyle`; a string, so a value
    /// from a newer version reads as the default); nil (not chosen) ISO 8601 (2026-11-30).
    public var todayTitle: String?
    /// The editor's text size in percent of the normal size (nil: 100).
    public var editorZoom: Int?
    /// Whether the notes of Gnote, Tomboy or tomboy-ng found on this computer were offered
    /// for import already (the offer is made once).
    public var importOffered: Bool?

    public var todayTitleStyle: TodaysNote.TitleStyle { todayTitle.flatMap(TodaysNote.TitleStyle.init(rawValue:)) ?? .iso }

    /// The notebook of today's note: "" (the top) when none was chosen or the one saved is not a notebook's path.
    public var todayNotebookPath: String { todayNotebook.flatMap(TodaysNote.notebookPath) ?? "" }

    /// The Trash's retention in days, nil for never.
    public var trashRetentionDays: Int? {
        let days = emptyTrashAfterDays ?? 30
        return days > 0 ? days : nil
    }

    public init(storage: Storage? = nil, syncedFolder: String? = nil, colorScheme: ColorScheme? = nil) {
        self.storage = storage
        self.syncedFolder = syncedFolder
        self.colorScheme = colorScheme
    }

    /// The library folder these preferences point at.
    /// A synced folder that is not an absolute path keeps its text as written (never resolved
    /// against the working directory), so `NoteLibrary.prepare` refuses it with the reason.
    public func libraryFolder(localLibrary: URL) -> URL {
        guard storage == .synced else { return localLibrary }
        let path = syncedFolder ?? ""
        if path.hasPrefix("/") { return URL(fileURLWithPath: path, isDirectory: true) }
        var unresolved = URLComponents()
        unresolved.scheme = "file"
        unresolved.path = path
        return unresolved.url ?? URL(fileURLWithPath: "/")
    }
}

/// Reads and writes the preferences file.
public struct PreferencesStore: Sendable {
    public let url: URL

    public init(configFolder: URL) {
        url = configFolder.appendingPathComponent("preferences.json")
    }

    /// The preferences, and a sentence for the user when the file could not be used.
    /// A damaged file is never written over: it is renamed `preferences.json.damaged-DATE`
    /// (kept for the user), and what can still be read from it — the storage choice and the
    /// synced folder above all, so notes do not silently go to another library — is used.
    public func load(now: Date = Date()) -> (preferences: Preferences, problem: String?) {
        var info = stat()
        if lstat(url.path, &info) != 0 && errno == ENOENT { return (Preferences(), nil) }
        let data: Data
        do {
            data = try RegularFile.read(url, followLinks: true).data
        } catch {
            // TRANSLATORS: %1$s is the file's full path, %2$s the system's reason.
            return (Preferences(), tr("Notula could not read its preferences file “%1$s” (%2$s), so it uses the defaults until it can.", url.path, String(describing: error)))
        }
        if let preferences = try? JSONDecoder().decode(Preferences.self, from: data) { return (preferences, nil) }
        let salvaged = Self.salvage(data)
        let kept = url.deletingLastPathComponent().appendingPathComponent("preferences.json.damaged-\(Self.stamp(now))")
        // Whole sentences, joined with spaces.
        // TRANSLATORS: %s is the preferences file's full path.
        var sentences = [tr("Notula’s preferences file “%s” is damaged.", url.path)]
        if rename(url.path, kept.path) == 0 {
            // TRANSLATORS: “It” is the damaged preferences file; %s is the full path it was renamed to.
            sentences.append(tr("It was kept as “%s”.", kept.path))
        } else {
            // TRANSLATORS: “It” is the damaged preferences file, which could not be renamed.
            sentences.append(tr("It was left as it is."))
        }
        if salvaged.storage == .synced, let folder = salvaged.syncedFolder {
            // TRANSLATORS: %s is the notes folder's full path.
            sentences.append(tr("Notula read what it could: your notes are in “%s”.", folder))
        } else if salvaged.storage != nil {
            // TRANSLATORS: “it” is the damaged preferences file.
            sentences.append(tr("Notula read what it could from it."))
        } else {
            sentences.append(tr("Notula uses the defaults."))
        }
        sentences.append(tr("Your next choice in Preferences is saved in a new file."))
        return (salvaged, sentences.joined(separator: " "))
    }

    /// The choices still legible in a damaged file: `"key": "value"` and `"key": number` pairs.
    static func salvage(_ data: Data) -> Preferences {
        let text = String(decoding: data, as: UTF8.self)
        func string(_ key: String) -> String? {
            guard let regex = try? NSRegularExpression(pattern: "\"\(key)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\""),
                  let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let range = Range(match.range(at: 1), in: text) else { return nil }
            // The value as JSON would read it (escapes such as \/ and \u00e9).
            let quoted = "\"" + text[range] + "\""
            return (try? JSONDecoder().decode(String.self, from: Data(quoted.utf8))) ?? String(text[range])
        }
        var preferences = Preferences()
        preferences.storage = string("storage").flatMap(Preferences.Storage.init(rawValue:))
        preferences.syncedFolder = string("syncedFolder")
        preferences.colorScheme = string("colorScheme").flatMap(ColorScheme.init(rawValue:))
        if let regex = try? NSRegularExpression(pattern: "\"emptyTrashAfterDays\"\\s*:\\s*([0-9]+)"),
           let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
           let range = Range(match.range(at: 1), in: text) {
            preferences.emptyTrashAfterDays = Int(text[range])
        }
        return preferences
    }

    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }

    public func save(_ preferences: Preferences) throws {
        try AtomicFileWriter.writeJSON(preferences, to: url)
    }
}
