import Gtk
import NotesCore

/// Light or dark. Follows the desktop's colour scheme — the freedesktop settings portal, read
/// at start and followed as it changes; without a portal, a GTK theme named "…-dark" — unless
/// Preferences says Light or Dark. GTK draws its dark style when GtkSettings'
/// "gtk-application-prefer-dark-theme" is set; our own CSS uses colours that work on both.
final class StyleController {
    static let portalNamespace = "org.freedesktop.appearance"
    static let portalKey = "color-scheme"

    private let settings: Settings?
    private let portal: SettingsPortal?
    /// What the desktop prefers now.
    private(set) var system: SystemColorScheme
    /// What Preferences says.
    private(set) var choice: ColorScheme

    init(choice: ColorScheme, settings: Settings? = Settings.forDefaultDisplay(), portal: SettingsPortal? = SettingsPortal()) {
        self.choice = choice
        self.settings = settings
        self.portal = portal
        let value = portal?.readUnsigned(namespace: Self.portalNamespace, key: Self.portalKey)
        system = SystemColorScheme(portalValue: value, themeName: settings?.themeName)
        portal?.onChange(namespace: Self.portalNamespace, key: Self.portalKey) { [weak self] value in
            // A portal that announces a change exists: an unreadable value is "no preference".
            self?.systemChanged(to: SystemColorScheme(portalValue: value ?? 0, themeName: nil))
        }
        apply()
    }

    var isDark: Bool { choice.usesDarkStyle(system: system) }

    func choose(_ scheme: ColorScheme) {
        choice = scheme
        apply()
    }

    func systemChanged(to scheme: SystemColorScheme) {
        system = scheme
        apply()
    }

    private var observers: [(Bool) -> Void] = []

    /// Calls `handler` with `isDark` whenever the style changes (the editor's own colours).
    func observe(_ handler: @escaping @MainActor (Bool) -> Void) {
        observers.append(handler)
    }

    private func apply() {
        for observer in observers { observer(isDark) }
        guard let settings, settings.prefersDarkTheme != isDark else { return }
        settings.prefersDarkTheme = isDark
    }
}
