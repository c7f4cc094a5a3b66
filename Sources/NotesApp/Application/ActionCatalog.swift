import Gtk
import NotesCore

/// Every action of the application and its windows, declared once: its name, label, keys,
/// menu section and windows. The main window's and note windows' menus, the application's
/// accelerators and the Keyboard Shortcuts window (Ctrl+?) are all built from this table, so
/// none of them can miss an action; `ActionCatalogTests` checks every action a window or the
/// application registers is here. What an action does is wired where its state lives
/// (`MainWindow`, `NoteWindow`, `NoteExporter`, `NotulaApplication`). Context menus of the
/// text (spelling, links, pictures) build their own small action groups beside their menus.
enum ActionCatalog {
    static var entries: [ActionEntry] {
        [
            // The note.
            .init(.app, "new-note", tr("New Note"), keys: ["<Control>n"], menu: .note, shortcuts: .notes),
            // TRANSLATORS: menu item: opens the note titled with today's date (made when there is none yet)
            .init(.app, "today", tr("Today's Note"), keys: ["<Control>t"], menu: .note, shortcuts: .notes),
            // TRANSLATORS: menu item: opens the small Quick Note window (as `notula --quick-note` and its desktop-wide key do)
            .init(.app, "quick-note", tr("Quick Note"), menu: .note),
            // TRANSLATORS: menu item: lists the templates (notes of the notebook "Templates") to make a new note from
            .init(.win, "new-from-template", tr("New Note from Template…"), menu: .note),
            // TRANSLATORS: menu item (a check box): keep the note at the top of the list
            .init(.win, "pin-note", tr("Pin Note"), menu: .note),
            // TRANSLATORS: menu item: shows the note in a window of its own
            .init(.win, "open-in-new-window", tr("Open in New Window"), keys: ["<Control><Shift>n"], menu: .note, shortcuts: .notes),
            .init(.win, "move-note", tr("Move to Notebook…"), menu: .note),
            .init(.win, "delete-note", tr("Delete Note"), menu: .note),
            .init(.widget, "notes-list-delete", tr("Delete Note"), keys: ["Delete"], noMenu: .widgetKey, shortcuts: .notes),
            // TRANSLATORS: menu items: add a #tag to the selected notes, or take one out of them
            .init(.win, "add-tag", tr("Add Tag…"), menu: .note),
            .init(.win, "remove-tag", tr("Remove Tag…"), menu: .note),
            // Several notes selected (issue #47): the pane in the editor's place and the rows' menu.
            .init(.win, "pin-selected", tr("Pin"), noMenu: .onScreen),
            .init(.win, "unpin-selected", tr("Unpin"), noMenu: .onScreen),
            .init(.win, "export-selected", tr("Export as HTML…"), noMenu: .onScreen),
            // TRANSLATORS: shortcuts of the notes list: selecting several notes
            .init(.widget, "notes-list-select-all", tr("Select All Notes"), keys: ["<Control>a"], noMenu: .widgetKey, shortcuts: .notes),
            .init(.widget, "notes-list-extend", tr("Select More Notes Above or Below"), keys: ["<Shift>Up", "<Shift>Down"], noMenu: .widgetKey,
                  shortcuts: .notes),
            .init(.widget, "notes-list-select-one", tr("Back to One Note"), keys: ["Escape"], noMenu: .widgetKey, shortcuts: .notes),
            .init(.win, "browse-versions", tr("Browse Versions…"), keys: ["<Control><Shift>h"], menu: .note, shortcuts: .notes),
            // TRANSLATORS: menu item: copies pictures or files into the notes folder and links them in the note
            .init(.win, "insert-file", tr("Insert Picture or File…"), keys: ["<Control><Shift>i"], menu: .note, shortcuts: .editing),
            // TRANSLATORS: menu item of a note's own window: shows the note in the main window's list
            .init(.win, "show-in-main-window", tr("Show in Main Window"), menu: .top, windows: .libraryNote),
            // Out of the app.
            .init(.win, "print", tr("Print…"), keys: ["<Control>p"], menu: .output, windows: .all, shortcuts: .notes),
            // TRANSLATORS: menu item: writes the note as a web page (one .html file, pictures inside)
            .init(.win, "export-html", tr("Export as HTML…"), menu: .output, windows: .all),
            // TRANSLATORS: menu item: writes the note as a PDF file
            .init(.win, "export-pdf", tr("Export as PDF…"), menu: .output, windows: .all),
            // Notebooks.
            .init(.win, "new-notebook", tr("New Notebook…"), menu: .notebook),
            .init(.win, "rename-notebook", tr("Rename Notebook…"), menu: .notebook),
            .init(.win, "delete-notebook", tr("Delete Notebook…"), menu: .notebook),
            // TRANSLATORS: menu item: deletes pictures and files no note links any more (asks first)
            .init(.win, "remove-unused-attachments", tr("Remove Unused Attachments…"), menu: .notebook),
            // TRANSLATORS: menu item: writes all notes of the chosen notebook into one web page (.html)
            .init(.win, "export-notebook", tr("Export Notebook as HTML…"), menu: .notebook),
            .init(.win, "sort::modified", tr("Sort by Last Modified"), menu: .sort),
            .init(.win, "sort::created", tr("Sort by Date Created"), menu: .sort),
            .init(.win, "sort::title", tr("Sort by Title"), menu: .sort),
            // Searching and finding: Ctrl+F finds where you are (in the note while writing in
            // it, among all notes from the list); Ctrl+Shift+F always searches all notes.
            .init(.win, "search", tr("Search"), keys: ["<Control><Shift>f"], noMenu: .onScreen, shortcuts: .notes),
            // TRANSLATORS: Ctrl+F searches all notes while the notes list has the focus.
            .init(.widget, "search-from-list", tr("Search (from the list)"), keys: ["<Control>f"], noMenu: .widgetKey, shortcuts: .notes),
            .init(.win, "find", tr("Find in Note (in the text)"), keys: ["<Control>f"], noMenu: .findBar, windows: .all, shortcuts: .editing),
            .init(.win, "replace", tr("Find and Replace in Note"), keys: ["<Control>h"], noMenu: .findBar, windows: .all, shortcuts: .editing),
            .init(.win, "find-next", tr("Next Match"), keys: ["<Control>g", "F3"], noMenu: .findBar, windows: .all, shortcuts: .editing),
            .init(.win, "find-previous", tr("Previous Match"), keys: ["<Control><Shift>g", "<Shift>F3"], noMenu: .findBar, windows: .all,
                  shortcuts: .editing),
            // TRANSLATORS: a shortcut: opens the list of the note's headings (the button under the text).
            .init(.win, "outline", tr("Outline"), keys: ["<Control><Shift>o"], noMenu: .onScreen, windows: .all, shortcuts: .editing),
            // The text view's own keys.
            .init(.widget, "undo", tr("Undo"), keys: ["<Control>z"], noMenu: .widgetKey, windows: .all, shortcuts: .editing),
            .init(.widget, "redo", tr("Redo"), keys: ["<Control><Shift>z"], noMenu: .widgetKey, windows: .all, shortcuts: .editing),
            // TRANSLATORS: a shortcut: selects the next word the spelling check marked.
            .init(.widget, "next-misspelling", tr("Next Misspelled Word"), keys: ["F7"], noMenu: .widgetKey, windows: .all, shortcuts: .editing),
            .init(.widget, "previous-misspelling", tr("Previous Misspelled Word"), keys: ["<Shift>F7"], noMenu: .widgetKey, windows: .all,
                  shortcuts: .editing),
            // TRANSLATORS: a shortcut: opens the text's context menu (with spelling suggestions for the word at the cursor).
            // (The Menu key too: GTK would print its name untranslated.)
            .init(.widget, "context-menu", tr("Context Menu (Spelling Suggestions)"), keys: ["<Shift>F10"], noMenu: .widgetKey, windows: .all,
                  shortcuts: .editing),
            // The editor's Markdown keys (MarkdownKeys).
            // TRANSLATORS: a shortcut: makes the selected text bold.
            .init(.widget, "bold", tr("Bold"), keys: ["<Control>b"], noMenu: .widgetKey, windows: .all, shortcuts: .markdown),
            // TRANSLATORS: a shortcut: makes the selected text italic.
            .init(.widget, "italic", tr("Italic"), keys: ["<Control>i"], noMenu: .widgetKey, windows: .all, shortcuts: .markdown),
            // TRANSLATORS: a shortcut: makes the selected text a link (a verb).
            .init(.widget, "link", tr("Link"), keys: ["<Control>k"], noMenu: .widgetKey, windows: .all, shortcuts: .markdown),
            .init(.widget, "continue-list", tr("Continue or End a List"), keys: ["Return"], noMenu: .widgetKey, windows: .all, shortcuts: .markdown),
            .init(.widget, "indent", tr("Indent List Item"), keys: ["Tab"], noMenu: .widgetKey, windows: .all, shortcuts: .markdown),
            .init(.widget, "outdent", tr("Outdent List Item"), keys: ["<Shift>Tab"], noMenu: .widgetKey, windows: .all, shortcuts: .markdown),
            .init(.widget, "toggle-task", tr("Toggle Task"), keys: ["<Control>Return"], noMenu: .widgetKey, windows: .all, shortcuts: .markdown),
            // TRANSLATORS: a shortcut: opens the [[link]] or link the cursor is in (Ctrl+click does too).
            .init(.widget, "open-link", tr("Open Link at Cursor"), keys: ["<Control>Return"], noMenu: .widgetKey, windows: .all,
                  shortcuts: .markdown),
            // The application.
            .init(.widget, "main-menu", tr("Main Menu"), keys: ["F10"], noMenu: .widgetKey, windows: .all, shortcuts: .application),
            // TRANSLATORS: menu item: notes of Gnote, Tomboy or a folder of Markdown files become notes here
            .init(.app, "import-notes", tr("Import Notes…"), menu: .application),
            .init(.app, "preferences", tr("Preferences"), keys: ["<Control>comma"], menu: .application, shortcuts: .application),
            // TRANSLATORS: shortcuts: make the editor's text larger, smaller, or its normal size again.
            .init(.app, "zoom-in", tr("Zoom In"), keys: ["<Control>plus", "<Control>equal", "<Control>KP_Add"], noMenu: .zoomKeys,
                  windows: .all, shortcuts: .application),
            .init(.app, "zoom-out", tr("Zoom Out"), keys: ["<Control>minus", "<Control>KP_Subtract"], noMenu: .zoomKeys, windows: .all,
                  shortcuts: .application),
            .init(.app, "zoom-reset", tr("Normal Size"), keys: ["<Control>0", "<Control>KP_0"], noMenu: .zoomKeys, windows: .all,
                  shortcuts: .application),
            .init(.app, "shortcuts", tr("Keyboard Shortcuts"), keys: ["<Control>question"], menu: .application, shortcuts: .application),
            .init(.app, "about", tr("About Notula"), menu: .application),
            .init(.window, "close", tr("Close Window"), keys: ["<Control>w"], menu: .window, windows: .all, shortcuts: .application),
            // TRANSLATORS: menu item: quit the application
            .init(.app, "quit", tr("Quit"), keys: ["<Control>q"], menu: .window, shortcuts: .application),
        ]
    }

    /// The main menu of a window showing `windows` (`.main`, or a note window's `.note` and,
    /// for a note of the library, `.libraryNote`): its sections in `MenuPlace` order.
    static func menu(for windows: ActionEntry.Windows) -> Menu {
        let menu = Menu()
        let shown = entries.filter { !$0.windows.isDisjoint(with: windows) && $0.menu != nil }
        for place in ActionEntry.MenuPlace.allCases {
            let items = shown.filter { $0.menu == place }
            guard !items.isEmpty else { continue }
            let section = place == .top ? menu : Menu()
            for item in items { section.append(item.label, action: item.detailedName) }
            if place != .top { menu.appendSection(section) }
        }
        return menu
    }

    /// Sets every action's keys as its accelerators.
    static func setAccelerators(on app: Application) {
        for entry in entries where entry.scope != .widget && !entry.keys.isEmpty {
            app.setAccelerators(entry.keys, for: entry.detailedName)
        }
    }

    /// The Keyboard Shortcuts window's sections: every entry with keys, in table order (the
    /// keypad's twins of a key are not listed).
    static var shortcutGroups: [ShortcutsWindow.Group] {
        let titles: [ActionEntry.ShortcutGroup: String] = [
            // TRANSLATORS: section titles in the Keyboard Shortcuts window ("Markdown": the text format).
            .notes: tr("Notes"), .editing: tr("Editing"), .markdown: tr("Markdown"), .application: tr("Application"),
        ]
        return ActionEntry.ShortcutGroup.allCases.map { group in
            let shortcuts = entries.filter { $0.shortcuts == group && !$0.keys.isEmpty }.map { entry in
                ShortcutsWindow.Shortcut(entry.shortcutTitle, accelerator: entry.keys.filter { !$0.contains("KP_") }.joined(separator: " "))
            }
            return ShortcutsWindow.Group(titles[group] ?? "", shortcuts)
        }
    }

    static func makeShortcutsWindow() -> ShortcutsWindow {
        // TRANSLATORS: accessible names of the Keyboard Shortcuts window's section menu, search button and search field.
        let names = ShortcutsWindow.ControlNames(sections: tr("Choose a Section"), searchButton: tr("Search"),
                                                 searchEntry: tr("Search Shortcuts"))
        let window = ShortcutsWindow(groups: shortcutGroups, names: names)
        window.title = tr("Keyboard Shortcuts")
        return window
    }
}
