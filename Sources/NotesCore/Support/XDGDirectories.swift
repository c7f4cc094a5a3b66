import Foundation

/// The XDG base directories (data, config, state, cache) for this user, from the environment.
/// Relative values are ignored, as the XDG Base Directory specification requires.
public struct XDGDirectories: Sendable {
    /// The user's home folder (where sync clients keep their folders).
    public let home: String
    public let dataHome: URL
    public let configHome: URL
    public let stateHome: URL
    public let cacheHome: URL

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        self.home = home
        func base(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback, isDirectory: true)
        }
        dataHome = base("XDG_DATA_HOME", ".local/share")
        configHome = base("XDG_CONFIG_HOME", ".config")
        stateHome = base("XDG_STATE_HOME", ".local/state")
        cacheHome = base("XDG_CACHE_HOME", ".cache")
    }

    /// `$XDG_DATA_HOME/notula/Notes`: the local library folder.
    public var localLibrary: URL { dataHome.appendingPathComponent("notula/Notes", isDirectory: true) }
    /// `$XDG_STATE_HOME/notula`: window state, recovery drafts, journals.
    public var appState: URL { stateHome.appendingPathComponent("notula", isDirectory: true) }
    /// `$XDG_CACHE_HOME/notula`: the library indexes (deleting them loses nothing).
    public var appCache: URL { cacheHome.appendingPathComponent("notula", isDirectory: true) }
    /// `$XDG_CONFIG_HOME/notula`: preferences.
    public var appConfig: URL { configHome.appendingPathComponent("notula", isDirectory: true) }
}
