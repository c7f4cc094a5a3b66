import Foundation
import Gtk
import NotesCore

/// The Quick Note's key for the whole desktop (issue #48). GNOME 43 has no global-shortcut
/// portal, so on GNOME Notula sets one of GNOME's own custom keyboard shortcuts (Settings ▸
/// Keyboard ▸ Custom Shortcuts shows it), at a path of its own, running `notula --quick-note`;
/// what GNOME holds is read back, never remembered by Notula. A combination GNOME already uses
/// (its window manager, Shell, media keys, another custom shortcut) is refused with its owner's
/// name. Elsewhere the Preferences show the command to bind.
enum QuickNoteShortcut {
    static let mediaKeys = "org.gnome.settings-daemon.plugins.media-keys"
    private static let customSchema = mediaKeys + ".custom-keybinding"
    private static let customPrefix = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/"
    static let path = customPrefix + "notula-quick-note/"
    /// Where GNOME keeps its own shortcuts (the ones GNOME 43 and later have).
    private static let builtIn = ["org.gnome.desktop.wm.keybindings", "org.gnome.shell.keybindings", "org.gnome.mutter.keybindings",
                                  "org.gnome.mutter.wayland.keybindings", mediaKeys]

    /// GNOME, with its keyboard shortcuts' settings installed: Notula can set the key itself.
    static var isAvailable: Bool {
        let desktops = (ProcessInfo.processInfo.environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":")
        return desktops.contains { $0.caseInsensitiveCompare("GNOME") == .orderedSame } && DesktopSettings.isInstalled(customSchema)
    }

    /// The command the key runs: `notula --quick-note` when the PATH finds this binary, else its full path.
    static var command: String {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/notula" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        if let onPath, URL(fileURLWithPath: onPath).resolvingSymlinksInPath().path == URL(fileURLWithPath: own).resolvingSymlinksInPath().path {
            return "notula --quick-note"
        }
        return shellQuoted(own) + " --quick-note"
    }

    /// The key GNOME runs the Quick Note with now, nil when none.
    static func current() -> String? {
        guard isAvailable, let list = DesktopSettings(schema: mediaKeys), list.strings("custom-keybindings").contains(path),
              let own = DesktopSettings(schema: customSchema, path: path) else { return nil }
        return own.strings("binding").first.flatMap { $0.isEmpty ? nil : $0 }
    }

    enum Outcome: Equatable {
        case bound(String)
        /// GNOME uses the combination already, for `owner`.
        case taken(owner: String)
        case failed
    }

    /// Sets `accelerator` as GNOME's custom shortcut running `command`, after checking that
    /// GNOME does not use it; the binding read back is what is reported.
    static func bind(_ accelerator: String) -> Outcome {
        guard isAvailable, let list = DesktopSettings(schema: mediaKeys), let own = DesktopSettings(schema: customSchema, path: path) else {
            return .failed
        }
        if let owner = owner(of: accelerator, customPaths: list.strings("custom-keybindings")) { return .taken(owner: owner) }
        // TRANSLATORS: the name of the custom keyboard shortcut Notula sets in GNOME's Settings ▸ Keyboard.
        guard own.set("name", string: tr("Notula Quick Note")), own.set("command", string: command),
              own.set("binding", string: accelerator) else { return .failed }
        let paths = list.strings("custom-keybindings")
        if !paths.contains(path), !list.set("custom-keybindings", strings: paths + [path]) { return .failed }
        DesktopSettings.sync()
        return current().map { Accelerator.sameKeys($0, accelerator) ? .bound($0) : .failed } ?? .failed
    }

    /// No key any more: GNOME's custom shortcut is removed.
    static func clear() {
        guard isAvailable, let list = DesktopSettings(schema: mediaKeys) else { return }
        let paths = list.strings("custom-keybindings")
        if paths.contains(path) { list.set("custom-keybindings", strings: paths.filter { $0 != path }) }
        if let own = DesktopSettings(schema: customSchema, path: path) {
            for key in ["name", "command", "binding"] { own.reset(key) }
        }
        DesktopSettings.sync()
    }

    /// Who in GNOME uses `accelerator` already: a built-in shortcut's description or another
    /// custom shortcut's name; nil when no one does.
    private static func owner(of accelerator: String, customPaths: [String]) -> String? {
        for schema in builtIn {
            guard let settings = DesktopSettings(schema: schema) else { continue }
            for key in settings.keys where key != "custom-keybindings" {
                if settings.strings(key).contains(where: { Accelerator.sameKeys($0, accelerator) }) {
                    return describe(settings.summary(of: key) ?? key)
                }
            }
        }
        for other in customPaths where other != path {
            guard other.hasPrefix("/"), other.hasSuffix("/"), let custom = DesktopSettings(schema: customSchema, path: other) else { continue }
            if custom.strings("binding").contains(where: { Accelerator.sameKeys($0, accelerator) }) {
                return custom.strings("name").first.flatMap { $0.isEmpty ? nil : $0 } ?? custom.strings("command").first ?? other
            }
        }
        return nil
    }

    /// "Keybinding to focus the active notification." as "Focus the active notification".
    private static func describe(_ summary: String) -> String {
        var text = summary.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasSuffix(".") { text.removeLast() }
        for prefix in ["Keybinding to ", "Binding to ", "Shortcut to "] where text.hasPrefix(prefix) {
            text = String(text.dropFirst(prefix.count))
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        return text
    }

    private static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+".unicodeScalars.contains($0) }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
