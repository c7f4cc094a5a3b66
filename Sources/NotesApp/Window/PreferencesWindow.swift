import Dispatch
import Foundation
import Gtk
import NotesCore

/// Preferences (Ctrl+comma): "Store notes in" This Computer / Synced Folder, each with its
/// folder and how many notes it holds. Choosing the other one moves every note there.
/// "Style": Follow System / Light / Dark, applied at once and remembered; "Readable width"
/// for the editor on wide windows; spelling on or off, its language (the installed dictionaries,
/// named in the user's language; a missing one says which package brings it) and acronyms;
/// "History": keep versions or not, Clear History…; "Today's Note": its notebook and title
/// (`TodaysNoteSettings`); "Quick Note": the desktop-wide key (`QuickNoteShortcutRow`).
/// Two columns; it scrolls on small screens. Escape closes it.
final class PreferencesWindow {
    let window = Window()
    private let storage: StorageController
    private let style: StyleController
    // TRANSLATORS: "Style" is the heading of the light/dark appearance choices (and names them for screen readers).
    private let stylePicker = ChoicePicker<ColorScheme>(heading: tr("Style"), choices: [
        // TRANSLATORS: a Style choice: light or dark as the desktop says.
        (.system, tr("Follow System")),
        // TRANSLATORS: a Style choice (the light appearance).
        (.light, tr("Light")),
        // TRANSLATORS: a Style choice (the dark appearance).
        (.dark, tr("Dark"))], accessiblePrefix: tr("Style"))
    // TRANSLATORS: a heading the choices below complete: "… deleted more than" “7 days ago” / “30 days ago” / … / “Never”.
    private let trashPicker = ChoicePicker<Int>(heading: tr("Empty the Trash of notes deleted more than"),
                                                // TRANSLATORS: a choice completing "Empty the Trash of notes deleted more than".
                                                choices: [7, 30, 90].map { ($0, trnc("Trash age", "%d day ago", "%d days ago", $0)) }
                                                    // TRANSLATORS: a Trash choice: the Trash is never emptied by itself.
                                                    + [(0, tr("Never"))],
                                                // TRANSLATORS: names the Trash choices for screen readers ("Empty the Trash after: 30 days ago").
                                                accessiblePrefix: tr("Empty the Trash after"))
    /// The window's notes list follows the Trash choice at once.
    var onTrashRetentionChanged: ((Int?) -> Void)?
    private let readableWidth = CheckButton(label: tr("Keep lines at a readable width on wide windows"))
    /// The editor follows the choice at once.
    var onReadableWidthChanged: ((Bool) -> Void)?
    // TRANSLATORS: a choice in Preferences: the editor takes the keys of the Vim text editor (normal, insert and visual modes, ":w", ":q").
    private let vimKeys = CheckButton(label: tr("Vim keys"))
    /// The editors follow the choice at once.
    var onVimKeysChanged: ((Bool) -> Void)?
    /// The editor's text size: Zoom Out, the size in percent (a click: Normal Size), Zoom In —
    /// the application's actions, as Ctrl+minus, Ctrl+0 and Ctrl+plus.
    private let zoomRow = Box(.horizontal, spacing: 6)
    private let zoomLevel = Button(label: "100 %")
    private let checkSpelling = CheckButton(label: tr("Check spelling as you type"))
    private let spellingLanguages = SpellingBroker.shared.languages
    /// The spelling language: a button showing the choice, opening the installed languages as
    /// radio items ("" stands for Automatic).
    private let spellingLanguage: MenuButton
    private let spellingLanguageChoice = SimpleAction(name: "spelling-language", choice: "")
    private let spellingLanguageNames: [String: String]
    private let skipAllCaps = CheckButton(label: tr("Skip words in capitals (acronyms such as NASA)"))
    private let spellingNotice = Label()
    /// The editor follows the spelling choices at once (they are saved in the preferences first).
    var onSpellingChanged: (() -> Void)?
    private let keepHistory = CheckButton(label: tr("Keep history"))
    private let historyDetail = Label(tr("Past versions of every note stay on this computer (Browse Versions, Ctrl+Shift+H). They are never synced."))
    private let clearHistory = Button(label: tr("Clear History…"))
    /// The Quick Note's key for the whole desktop (GNOME's custom shortcut).
    private var quickNote: QuickNoteShortcutRow!
    /// Where today's note is made and how its title says the date.
    private var today: TodaysNoteSettings!
    /// Versions are kept or not from now on.
    var onKeepHistoryChanged: ((Bool) -> Void)?
    /// Clear History… was clicked (the application asks first).
    var onClearHistory: (() -> Void)?
    // TRANSLATORS: choices under "Store notes in".
    private let local = CheckButton(label: tr("This Computer"))
    private let synced = CheckButton(label: tr("Synced Folder"))
    private let localDetail = Label()
    private let syncedDetail = Label()
    private let chooseButton = Button(label: tr("Choose Folder…"))
    /// Set while the radio buttons are changed from here (not by the user).
    private var showing = false

    init(parent: Window, storage: StorageController, style: StyleController) {
        self.storage = storage
        self.style = style
        // TRANSLATORS: stands for a spelling language when no dictionary is installed.
        let system = SpellingLanguage.systemDefault(installed: spellingLanguages).map { SpellingLanguage.displayName($0) } ?? tr("None")
        // TRANSLATORS: the first spelling language choice: the user's own language; %s names the dictionary it uses.
        var names = ["": tr("Automatic (%s)", system)]
        let languageMenu = Menu()
        languageMenu.append(names[""]!, action: "prefs.spelling-language::")
        for tag in SpellingLanguage.sortedByName(spellingLanguages) {
            names[tag] = SpellingLanguage.displayName(tag)
            languageMenu.append(names[tag]!, action: "prefs.spelling-language::\(tag)")
        }
        spellingLanguageNames = names
        spellingLanguage = MenuButton(label: names[""]!, menu: languageMenu)
        window.title = tr("Preferences")
        window.transientFor = parent
        window.setDefaultSize(width: min(980, Window.largestScreenSize?.width ?? 980), height: -1)
        let box = Box(.horizontal, spacing: 36)
        box.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        let heading = Label(tr("Store notes in"))
        heading.addCSSClass("heading")
        heading.xalign = 0
        synced.group(with: local)
        local.accessibleLabel = tr("Store notes on This Computer")
        synced.accessibleLabel = tr("Store notes in a Synced Folder")
        chooseButton.accessibleDescription = tr("Choose the synced folder")
        for detail in [localDetail, syncedDetail] {
            detail.xalign = 0
            detail.wraps = true
            detail.addCSSClass("note-meta")
            detail.setMargins(top: 0, bottom: 6, start: 28, end: 0)
        }
        chooseButton.halign = .start
        chooseButton.setMargins(top: 0, bottom: 0, start: 28, end: 0)
        let explanation = Label(tr("A synced folder is one that a sync client (Syncthing, Nextcloud, Dropbox) keeps the same on your other devices. Switching moves every note, safely."))
        explanation.wraps = true
        explanation.xalign = 0
        explanation.addCSSClass("note-meta")
        stylePicker.root.setMargins(top: 18, bottom: 0, start: 0, end: 0)
        trashPicker.root.setMargins(top: 18, bottom: 0, start: 0, end: 0)
        // TRANSLATORS: a heading in Preferences (the editor's settings).
        let editorHeading = Label(tr("Editor"))
        editorHeading.addCSSClass("heading")
        editorHeading.xalign = 0
        editorHeading.setMargins(top: 18, bottom: 0, start: 0, end: 0)
        readableWidth.accessibleLabel = tr("Readable width")
        checkSpelling.accessibleLabel = tr("Check spelling")
        spellingLanguage.accessibleLabel = tr("Spelling language")
        skipAllCaps.accessibleLabel = tr("Skip words in capitals")
        // TRANSLATORS: a label in Preferences before the buttons that make the editor's text smaller or larger.
        zoomRow.append(Label(tr("Text size")))
        let zoomOut = Button(iconName: "zoom-out-symbolic")
        zoomOut.actionName = "app.zoom-out"
        zoomOut.accessibleLabel = tr("Zoom Out")
        zoomOut.tooltip = tr("Zoom Out (Ctrl+minus)")
        zoomLevel.actionName = "app.zoom-reset"
        zoomLevel.tooltip = tr("Normal Size (Ctrl+0)")
        let zoomIn = Button(iconName: "zoom-in-symbolic")
        zoomIn.actionName = "app.zoom-in"
        zoomIn.accessibleLabel = tr("Zoom In")
        zoomIn.tooltip = tr("Zoom In (Ctrl+plus)")
        for button in [zoomOut, zoomLevel, zoomIn] { zoomRow.append(button) }
        showZoom(storage.preferences.editorZoom ?? EditorZoom.normal)
        // TRANSLATORS: a label before the spelling language button in Preferences.
        let languageLabel = Label(tr("Language"))
        let languageRow = Box(.horizontal, spacing: 12)
        languageRow.append(languageLabel)
        languageRow.append(spellingLanguage)
        languageRow.setMargins(top: 0, bottom: 0, start: 28, end: 0)
        skipAllCaps.setMargins(top: 0, bottom: 0, start: 28, end: 0)
        spellingNotice.xalign = 0
        spellingNotice.wraps = true
        spellingNotice.addCSSClass("note-meta")
        spellingNotice.setMargins(top: 0, bottom: 0, start: 28, end: 0)
        // TRANSLATORS: a heading in Preferences (the notes' kept past versions).
        let historyHeading = Label(tr("History"))
        historyHeading.addCSSClass("heading")
        historyHeading.xalign = 0
        historyHeading.setMargins(top: 18, bottom: 0, start: 0, end: 0)
        historyDetail.xalign = 0
        historyDetail.wraps = true
        historyDetail.addCSSClass("note-meta")
        historyDetail.setMargins(top: 0, bottom: 6, start: 28, end: 0)
        clearHistory.halign = .start
        clearHistory.accessibleLabel = tr("Clear History")
        clearHistory.tooltip = tr("Delete every kept version of every note (the notes stay)")
        quickNote = QuickNoteShortcutRow(window: window)
        today = TodaysNoteSettings(storage: storage)
        // Two columns — where notes live and what is kept of them; how the editor writes and
        // the ways in — so it fits a laptop's screen whole; it scrolls on a smaller one.
        let notesColumn = Box(.vertical, spacing: 8)
        for widget: Widget in [heading, local, localDetail, synced, syncedDetail, chooseButton, explanation, stylePicker.root,
                               trashPicker.root, historyHeading, keepHistory, historyDetail, clearHistory] {
            notesColumn.append(widget)
        }
        let editorColumn = Box(.vertical, spacing: 8)
        editorHeading.setMargins(top: 0, bottom: 0, start: 0, end: 0)
        for widget: Widget in [editorHeading, zoomRow, readableWidth, vimKeys, checkSpelling, languageRow, skipAllCaps, spellingNotice,
                               today.root, quickNote.root] {
            editorColumn.append(widget)
        }
        box.isHomogeneous = true
        box.append(notesColumn)
        box.append(editorColumn)
        let scroller = ScrolledWindow()
        scroller.scrollVerticallyOnly()
        scroller.propagatesNaturalHeight = true
        scroller.maxContentHeight = max(300, (Window.largestScreenSize?.height ?? 768) - 100)
        scroller.child = box
        window.child = scroller
        stylePicker.onChoose = { [weak self] scheme in self?.chooseStyle(scheme) }
        trashPicker.onChoose = { [weak self] days in
            self?.storage.updatePreferences { $0.emptyTrashAfterDays = days }
            self?.onTrashRetentionChanged?(self?.storage.preferences.trashRetentionDays)
        }
        readableWidth.onToggled { [weak self] button in
            guard let self, !self.showing else { return }
            self.storage.updatePreferences { $0.readableWidth = button.isActive }
            self.onReadableWidthChanged?(button.isActive)
        }
        vimKeys.onToggled { [weak self] button in
            guard let self, !self.showing else { return }
            self.storage.updatePreferences { $0.vimKeys = button.isActive ? true : nil }
            self.onVimKeysChanged?(button.isActive)
        }
        checkSpelling.onToggled { [weak self] button in
            guard let self, !self.showing else { return }
            self.storage.updatePreferences { $0.checkSpelling = button.isActive }
            self.spellingChanged()
        }
        spellingLanguageChoice.onChangeState { [weak self] action, tag in
            guard let self else { return }
            action.choice = tag
            self.spellingLanguage.label = self.spellingLanguageNames[tag] ?? tag
            self.storage.updatePreferences { $0.spellingLanguage = tag.isEmpty ? nil : tag }
            self.spellingChanged()
        }
        window.addActions([spellingLanguageChoice], prefix: "prefs")
        skipAllCaps.onToggled { [weak self] button in
            guard let self, !self.showing else { return }
            self.storage.updatePreferences { $0.spellingSkipsAllCaps = button.isActive }
            self.spellingChanged()
        }
        keepHistory.onToggled { [weak self] button in
            guard let self, !self.showing else { return }
            self.storage.updatePreferences { $0.keepHistory = button.isActive }
            self.onKeepHistoryChanged?(button.isActive)
        }
        clearHistory.onClicked { [weak self] _ in self?.onClearHistory?() }
        let keys = KeyController()
        keys.onKeyPressed { [weak self] _, keyval, modifiers in
            guard keyval == Key.escape, modifiers & Key.modifierMask == 0 else { return false }
            self?.window.close()
            return true
        }
        window.addController(keys)
        local.onToggled { [weak self] button in
            guard let self, !self.showing, button.isActive, self.storage.isSynced else { return }
            self.storage.move(to: .local, folder: self.storage.localLibrary) { [weak self] _ in self?.refresh() }
        }
        synced.onToggled { [weak self] button in
            guard let self, !self.showing, button.isActive, !self.storage.isSynced else { return }
            self.chooseSyncedFolder()
        }
        chooseButton.onClicked { [weak self] _ in self?.chooseSyncedFolder() }
        storage.onLibraryMoved = { [weak self] in self?.refresh() }
        refresh()
    }

    /// The text size now, in percent (the application calls it after each zoom).
    func showZoom(_ percent: Int) {
        zoomLevel.label = "\(percent) %"
        // TRANSLATORS: the accessible name of the text size button in Preferences; %d: the size in percent. A click sets it back to 100 %.
        zoomLevel.accessibleLabel = tr("Text size %d percent, click for the normal size", percent)
    }

    func present() {
        refresh()
        window.present()
    }

    /// Shows the current choice, the folders and their note counts (counted off the main thread).
    func refresh() {
        quickNote.refresh()  // GNOME's shortcut may have changed in its own Settings meanwhile
        today.refresh()
        stylePicker.show(style.choice)
        trashPicker.show(storage.preferences.trashRetentionDays ?? 0)
        showing = true
        readableWidth.isActive = storage.preferences.readableWidth ?? true
        vimKeys.isActive = storage.preferences.vimKeys ?? false
        keepHistory.isActive = storage.preferences.keepHistory ?? true
        checkSpelling.isActive = storage.preferences.checkSpelling ?? true
        let chosen = storage.preferences.spellingLanguage.flatMap { spellingLanguages.contains($0) ? $0 : nil } ?? ""
        spellingLanguageChoice.choice = chosen
        spellingLanguage.label = spellingLanguageNames[chosen] ?? chosen
        skipAllCaps.isActive = storage.preferences.spellingSkipsAllCaps ?? true
        local.isActive = !storage.isSynced
        synced.isActive = storage.isSynced
        showing = false
        showSpellingNotice()
        let localFolder = storage.localLibrary
        let syncedFolder = storage.preferences.syncedFolder.map { URL(fileURLWithPath: $0) }
        localDetail.text = localFolder.path
        syncedDetail.text = syncedFolder?.path ?? tr("No synced folder chosen yet")
        chooseButton.label = syncedFolder == nil ? tr("Choose Folder…") : tr("Choose Another Folder…")
        DispatchQueue.global(qos: .utility).async {
            let localCount = NoteLibrary.countNotes(in: localFolder)
            let syncedCount = syncedFolder.flatMap { NoteLibrary.countNotes(in: $0) }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.localDetail.text = "\(localFolder.path) — \(Self.describe(localCount))"
                if let syncedFolder { self.syncedDetail.text = "\(syncedFolder.path) — \(Self.describe(syncedCount))" }
            }
        }
    }

    private func spellingChanged() {
        showSpellingNotice()
        onSpellingChanged?()
    }

    /// Greys what spelling off makes moot, and says when a language has no dictionary and
    /// which package brings it: information in the window, never an error dialog.
    private func showSpellingNotice() {
        let on = storage.preferences.checkSpelling ?? true
        spellingLanguage.isSensitive = on && !spellingLanguages.isEmpty
        skipAllCaps.isSensitive = on
        let wanted = storage.preferences.spellingLanguage ?? SpellingLanguage.preferred().first ?? "en_US"
        var message: String?
        if on, spellingLanguages.isEmpty {
            // TRANSLATORS: %s is a Debian package name such as “hunspell-de-de”.
            message = tr("No spelling dictionary is installed. Install the package “%s” (or the one for your language) to check spelling.",
                         SpellingLanguage.package(for: wanted.contains("_") ? wanted : "en_US"))
        } else if on, SpellingLanguage.bestMatch(for: wanted, installed: spellingLanguages) == nil {
            // TRANSLATORS: %1$s names a language (“French (France)”), %2$s a Debian package (“hunspell-fr-fr”).
            message = tr("No dictionary for %1$s is installed: install the package “%2$s”. Until then another language is used.",
                         SpellingLanguage.displayName(wanted), SpellingLanguage.package(for: wanted))
        }
        let checked = SpellingLanguage.bestMatch(for: wanted, installed: spellingLanguages)
            ?? SpellingLanguage.systemDefault(installed: spellingLanguages)
        if on, let checked, let problem = SpellingBroker.shared.personalListProblem(checked) {
            // TRANSLATORS: %s says why the personal word list cannot be read.
            let listMessage = tr("%s Until it is fixed, the words in it are marked as misspelled.", problem.description)
            message = message.map { $0 + "\n" + listMessage } ?? listMessage
        }
        spellingNotice.text = message ?? ""
        spellingNotice.isVisible = message != nil
    }

    private static func describe(_ count: Int?) -> String {
        // TRANSLATORS: follows a folder's path ("/home/me/Notes — not available"): its notes could not be counted.
        guard let count else { return tr("not available") }
        return trn("%d note", "%d notes", count)
    }

    /// Applied at once; remembered with the other choices in preferences.json.
    private func chooseStyle(_ scheme: ColorScheme) {
        style.choose(scheme)
        storage.updatePreferences { $0.colorScheme = scheme }
    }

    /// The user picks the sync client's folder; notes go into a "Notes" folder inside it
    /// (or into the folder itself when it is already called Notes).
    private func chooseSyncedFolder() {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let chooser = FileChooser.selectFolder(title: tr("Choose the Synced Folder"), parent: window, folder: home)
        chooser.run { [weak self] path in
            guard let self else { return }
            guard let path else { self.refresh(); return }
            let chosen = URL(fileURLWithPath: path, isDirectory: true)
            let destination = chosen.lastPathComponent == "Notes" ? chosen : chosen.appendingPathComponent("Notes", isDirectory: true)
            self.storage.move(to: .synced, folder: destination) { [weak self] _ in self?.refresh() }
        }
    }
}
