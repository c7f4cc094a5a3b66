import Foundation

/// What the user chose, in `$XDG_CONFIG_HOME/notula/preferences.json` (plain JSON, written
/// atomically). A missing file means "not chosen yet" (first launch asks); a damaged one gives
/// the defaults and a message, never a crash.
public struct Preferences: Codable, Equatable {
    public enum Storage: String, Codable {
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
    public func libraryFolder(localLibrary: URL) -> URL {
        if storage == .synced, let syncedFolder { return URL(fileURLWithPath: syncedFolder, isDirectory: true) }
        return localLibrary
    }
}

/// Reads and writes the preferences file.
public struct PreferencesStore {
    public let url: URL

    public init(configFolder: URL) {
        url = configFolder.appendingPathComponent("preferences.json")
    }

    /// The preferences, and a sentence for the user when the file could not be used.
    public func load() -> (preferences: Preferences, problem: String?) {
        var info = stat()
        if lstat(url.path, &info) != 0 && errno == ENOENT { return (Preferences(), nil) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return (Preferences(), "Notula could not read its preferences file “\(url.path)”, so it uses the defaults.")
        }
        guard let preferences = try? JSONDecoder().decode(Preferences.self, from: data) else {
            return (Preferences(), "Notula’s preferences file “\(url.path)” is damaged, so it uses the defaults. Choosing again in Preferences replaces it.")
        }
        return (preferences, nil)
    }

    public func save(_ preferences: Preferences) throws {
        try AtomicFileWriter.writeJSON(preferences, to: url)
    }
}
