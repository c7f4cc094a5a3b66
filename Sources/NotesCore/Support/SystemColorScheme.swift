import Foundation

/// What the desktop prefers, as the freedesktop settings portal says it
/// (`org.freedesktop.appearance` `color-scheme`: 0 no preference, 1 prefer dark, 2 prefer light).
public enum SystemColorScheme: Equatable, Sendable {
    case noPreference
    case preferDark
    case preferLight

    /// `portalValue` is nil when there is no portal (or it does not know the key); then a GTK
    /// theme named "…-dark" (Adwaita-dark in settings.ini) counts as dark.
    public init(portalValue: UInt32?, themeName: String?) {
        switch portalValue {
        case 1: self = .preferDark
        case 2: self = .preferLight
        case .some: self = .noPreference
        case nil:
            self = (themeName ?? "").lowercased().hasSuffix("-dark") ? .preferDark : .noPreference
        }
    }
}
