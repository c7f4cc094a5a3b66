import Gtk

/// One line of `ActionCatalog`: an action of the application or a window (or a key a widget
/// handles itself), with everything the menus, the accelerators and the Keyboard Shortcuts
/// window need to know about it.
struct ActionEntry {
    /// Which action map holds it: `app.`, a window's `win.`, GTK's own `window.` — or none:
    /// a key a widget handles itself (the list's Delete, the text view's Undo, Markdown keys),
    /// only listed in the Keyboard Shortcuts window.
    enum Scope: String {
        case app, win, window, widget
    }

    /// The section of a window's main menu it appears in, in menu order.
    enum MenuPlace: CaseIterable {
        case top, note, output, notebook, sort, application, window
    }

    /// The windows whose menus and key maps it belongs to.
    struct Windows: OptionSet {
        let rawValue: Int
        static let main = Windows(rawValue: 1)
        /// A note's own window (Open in New Window, `notula FILE`).
        static let note = Windows(rawValue: 2)
        /// A note window showing a note of the library (not a file outside it).
        static let libraryNote = Windows(rawValue: 4)
        static let all: Windows = [.main, .note, .libraryNote]
    }

    /// The section of the Keyboard Shortcuts window it is listed in.
    enum ShortcutGroup: CaseIterable {
        case notes, editing, markdown, application
    }

    /// Why an action has no menu item (the menus show every other action).
    enum NoMenu {
        /// The editor's find bar offers it, and the key opens or drives that bar.
        case findBar
        /// Always on screen (the search field at the top of the notes list): the key focuses it.
        case onScreen
        /// Keys only, as in GNOME Text Editor: the text size changes by steps as it is typed.
        case zoomKeys
        /// A key of a widget, not an action.
        case widgetKey
    }

    let scope: Scope
    /// The action's name; a choice of a stateful action names its target ("sort::title").
    let name: String
    /// As the menu and the Keyboard Shortcuts window say it (the shortcuts window drops a "…").
    let label: String
    /// Keys set as the action's accelerators (for `widget` entries: the keys the widget handles).
    let keys: [String]
    let menu: MenuPlace?
    let noMenu: NoMenu?
    let windows: Windows
    let shortcuts: ShortcutGroup?

    init(_ scope: Scope, _ name: String, _ label: String, keys: [String] = [], menu: MenuPlace? = nil, noMenu: NoMenu? = nil,
         windows: Windows = .main, shortcuts: ShortcutGroup? = nil) {
        self.scope = scope
        self.name = name
        self.label = label
        self.keys = keys
        self.menu = menu
        self.noMenu = noMenu
        self.windows = windows
        self.shortcuts = shortcuts
    }

    /// "win.sort::title" — what a menu item or an accelerator names.
    var detailedName: String { "\(scope.rawValue).\(name)" }

    /// The action's own name, without a target ("sort").
    var actionName: String { name.components(separatedBy: "::")[0] }

    /// As the Keyboard Shortcuts window lists it: without the "…" that says a dialog follows.
    var shortcutTitle: String { label.hasSuffix("…") ? String(label.dropLast()) : label }
}
