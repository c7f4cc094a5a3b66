import Foundation

/// The style the user chose in Preferences ("Style"): follow the desktop, or always light or
/// dark. Stored in preferences.json as "system", "light" or "dark".
public enum ColorScheme: String, Codable, Sendable {
    case system
    case light
    case dark

    /// An unknown word (a newer version's, a hand edit) means "follow the system" rather
    /// than a damaged file that would also lose where the notes live.
    public init(from decoder: Decoder) throws {
        let word = try decoder.singleValueContainer().decode(String.self)
        self = ColorScheme(rawValue: word) ?? .system
    }

    /// Whether the app should use the dark style, given what the desktop prefers.
    public func usesDarkStyle(system: SystemColorScheme) -> Bool {
        switch self {
        case .system: return system == .preferDark
        case .light: return false
        case .dark: return true
        }
    }
}
