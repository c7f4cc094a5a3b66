import Foundation
import Gtk
import NotesCore

/// The one window: header bar, notes list on the left, editor on the right, a toast above.
/// Remembers its size and divider position in the state folder. In the error chain it is the
/// owner of the window widget; its next responder is the application.
final class MainWindow: Responder {
    let window: ApplicationWindow
    let list = NotesListView()
    let editor = EditorView()
    let toast = ToastView()
    let status = StatusLight()
    let openNote: OpenNoteController
    let controller: NotesController
    private let paned = Paned(.horizontal)
    private let deleteAction = SimpleAction(name: "delete-note")
    private let searchAction = SimpleAction(name: "search")
    private let findAction = SimpleAction(name: "find")
    private let replaceAction = SimpleAction(name: "replace")
    private let findNextAction = SimpleAction(name: "find-next")
    private let findPreviousAction = SimpleAction(name: "find-previous")
    private let pinAction = SimpleAction(name: "pin-note", checked: false)
    private let sortAction: SimpleAction
    private let moveNoteAction = SimpleAction(name: "move-note")
    private let newNotebookAction = SimpleAction(name: "new-notebook")
    private let renameNotebookAction = SimpleAction(name: "rename-notebook")
    private let deleteNotebookAction = SimpleAction(name: "delete-notebook")
    private let browseVersionsAction = SimpleAction(name: "browse-versions")
    private let insertFileAction = SimpleAction(name: "insert-file")
    private let removeUnusedAction = SimpleAction(name: "remove-unused-attachments")
    private let openInNewWindowAction = SimpleAction(name: "open-in-new-window")
    private let exportNotebookAction = SimpleAction(name: "export-notebook")
    private let exporter: NoteExporter
    /// Open in New Window (the selected note, or a row's context menu or middle-click).
    var onOpenInNewWindow: ((URL) -> Void)?
    lazy var unusedAttachments = UnusedAttachments(queue: controller.io)
    private let stateURL: URL
    let banner = LibraryBanner()
    /// Information for the user (not failures): first launch, a move finished at start …
    let notice = NoticeBanner()
    private weak var application: Responder?
    /// Where the notes live (for the banner's Locate Folder…).
    weak var storage: StorageController?

    init(application: Application, appResponder: Responder, library: NoteLibrary, createsLibraryFolder: Bool,
         drafts: RecoveryDrafts, stateURL: URL, indexFolder: URL? = nil, live: LiveLibrary? = nil) {
        self.stateURL = stateURL
        self.application = appResponder
        window = ApplicationWindow(application: application)
        window.addCSSClass("notula-main")  // no fades (see AppStyle)
        let state = WindowState.load(from: stateURL)
        sortAction = SimpleAction(name: "sort", choice: (state.sortOrder ?? .modified).rawValue)
        window.title = "Notula"
        openNote = OpenNoteController(editor: editor, status: status, drafts: drafts)
        controller = NotesController(library: library, list: list, openNote: openNote, toast: toast,
                                     createsLibraryFolder: createsLibraryFolder, indexFolder: indexFolder, sharedLive: live)
        exporter = NoteExporter(window: window, editor: editor)
        super.init()
        controller.sidebar.prepend(banner.root)
        controller.sidebar.prepend(notice.root)
        controller.onLibraryUnavailable = { [weak self] error in
            guard let self else { return }
            // "Permission denied" → "permission denied"; a reason naming a path keeps its case.
            let explanation = (error as? StorageError)?.explanation ?? "\(error)"
            let reason = explanation.prefix(1).lowercased(with: Localization.locale) + explanation.dropFirst()
            self.banner.show(folder: self.controller.library.folder.path, reason: reason)
        }
        controller.onLibraryAvailable = { [weak self] in self?.banner.hide() }
        controller.notice = { [weak self] message, action in self?.notice.show(message, action: action) }
        // A listed note whose file was gone when opened: its row goes, and (nothing being open)
        // the newest note opens, as at start.
        openNote.onNoteGone = { [weak self] url in
            guard let self, let id = self.controller.id(of: url) else { return }
            self.controller.refreshIndex([id]) { [weak self] _ in self?.controller.openNewestIfNothingIsOpen() }
        }
        banner.onRetry = { [weak self] in self?.controller.start() }
        banner.onLocate = { [weak self] in self?.locateLibrary() }
        window.owner = self
        openNote.window = window
        controller.window = window

        window.titlebar = makeHeaderBar()
        paned.startChild = controller.sidebar
        paned.endChild = openNote.pane
        let overlay = Overlay()
        overlay.child = paned
        overlay.addOverlay(toast.root)
        window.child = overlay

        // A size remembered from a larger screen (or a window a tall sidebar once stretched) fits this one.
        let screen = Window.largestScreenSize ?? (state.width, state.height)
        window.setDefaultSize(width: min(state.width, screen.width), height: min(state.height, screen.height))
        paned.position = state.sidebarWidth
        if state.isMaximized { window.maximize() }

        deleteAction.isEnabled = false
        deleteAction.onActivate { [weak self] _ in self?.controller.deleteSelected() }
        window.add(deleteAction)
        browseVersionsAction.onActivate { [weak self] _ in self?.openNote.showHistory() }
        window.add(browseVersionsAction)
        openInNewWindowAction.isEnabled = false
        openInNewWindowAction.onActivate { [weak self] _ in
            guard let self, let id = self.controller.list.selectedID else { return }
            self.onOpenInNewWindow?(self.controller.library.folder.appendingPathComponent(id))
        }
        window.add(openInNewWindowAction)
        list.onOpenInNewWindow = { [weak self] id in
            guard let self else { return }
            self.onOpenInNewWindow?(self.controller.library.folder.appendingPathComponent(id))
        }
        controller.sortOrder = state.sortOrder ?? .modified
        controller.restoring = NotesController.Restoring(note: state.openNote, cursorOffset: state.cursorOffset ?? 0,
                                                         topOffset: state.topOffset ?? 0, notebook: state.notebook)
        wireOrganizeActions()
        wireAttachments()
        wireExport()
        controller.onSelectionAvailable = { [weak self] available in
            guard let self else { return }
            self.deleteAction.isEnabled = available
            self.openInNewWindowAction.isEnabled = available
            self.pinAction.isEnabled = available
            self.moveNoteAction.isEnabled = available
            self.exporter.isEnabled = available
            self.pinAction.isChecked = self.controller.selectedIsPinned
        }

        // Ctrl+Z undoes what a toast offers to undo when it says so (links rewritten in other notes).
        let undoKeys = KeyController()
        undoKeys.runBeforeWidget()
        undoKeys.onKeyPressed { [weak self] _, key, modifiers in
            guard let self, key == Key.letter("z"), modifiers & Key.modifierMask == Key.primaryMask else { return false }
            return self.toast.controlZ()
        }
        window.addController(undoKeys)
        window.onCloseRequest { [weak self] _ in self?.closeRequested() ?? false }
        if StartupReport.isOn {
            window.onMap { _ in StartupReport.windowMapped() }
        }
    }

    private func makeHeaderBar() -> HeaderBar {
        let header = HeaderBar()
        let newNote = Button(iconName: "document-new-symbolic")
        newNote.actionName = "app.new-note"
        newNote.tooltip = tr("New Note (Ctrl+N)")
        newNote.accessibleLabel = tr("New Note")
        header.packStart(newNote)

        let noteSection = Menu()
        noteSection.append(tr("New Note"), action: "app.new-note")
        // TRANSLATORS: menu item (a check box): keep the note at the top of the list
        noteSection.append(tr("Pin Note"), action: "win.pin-note")
        // TRANSLATORS: menu item: shows the note in a window of its own
        noteSection.append(tr("Open in New Window"), action: "win.open-in-new-window")
        noteSection.append(tr("Move to Notebook…"), action: "win.move-note")
        noteSection.append(tr("Delete Note"), action: "win.delete-note")
        noteSection.append(tr("Browse Versions…"), action: "win.browse-versions")
        // TRANSLATORS: menu item: copies pictures or files into the notes folder and links them in the note
        noteSection.append(tr("Insert Picture or File…"), action: "win.insert-file")
        let outSection = Menu()
        outSection.append(tr("Print…"), action: "win.print")
        // TRANSLATORS: menu item: writes the note as a web page (one .html file, pictures inside)
        outSection.append(tr("Export as HTML…"), action: "win.export-html")
        // TRANSLATORS: menu item: writes the note as a PDF file
        outSection.append(tr("Export as PDF…"), action: "win.export-pdf")
        let notebookSection = Menu()
        notebookSection.append(tr("New Notebook…"), action: "win.new-notebook")
        notebookSection.append(tr("Rename Notebook…"), action: "win.rename-notebook")
        notebookSection.append(tr("Delete Notebook…"), action: "win.delete-notebook")
        // TRANSLATORS: menu item: deletes pictures and files no note links any more (asks first)
        notebookSection.append(tr("Remove Unused Attachments…"), action: "win.remove-unused-attachments")
        // TRANSLATORS: menu item: writes all notes of the chosen notebook into one web page (.html)
        notebookSection.append(tr("Export Notebook as HTML…"), action: "win.export-notebook")
        let sortSection = Menu()
        sortSection.append(tr("Sort by Last Modified"), action: "win.sort::modified")
        sortSection.append(tr("Sort by Date Created"), action: "win.sort::created")
        sortSection.append(tr("Sort by Title"), action: "win.sort::title")
        let appSection = Menu()
        // TRANSLATORS: menu item: notes of Gnote, Tomboy or a folder of Markdown files become notes here
        appSection.append(tr("Import Notes…"), action: "app.import-notes")
        appSection.append(tr("Preferences"), action: "app.preferences")
        appSection.append(tr("Keyboard Shortcuts"), action: "app.shortcuts")
        appSection.append(tr("About Notula"), action: "app.about")
        let windowSection = Menu()
        windowSection.append(tr("Close Window"), action: "window.close")
        // TRANSLATORS: menu item: quit the application
        windowSection.append(tr("Quit"), action: "app.quit")
        let menu = Menu()
        menu.appendSection(noteSection)
        menu.appendSection(outSection)
        menu.appendSection(notebookSection)
        menu.appendSection(sortSection)
        menu.appendSection(appSection)
        menu.appendSection(windowSection)
        let menuButton = MenuButton(iconName: "open-menu-symbolic", menu: menu)
        menuButton.isPrimary = true
        menuButton.tooltip = tr("Main Menu (F10)")
        menuButton.accessibleLabel = tr("Main Menu")
        header.packEnd(menuButton)
        header.packEnd(status.root)
        return header
    }

    /// Saves before the window goes — in the background, the window answering meanwhile — and
    /// closes it once the note's file holds the text; if saving fails the window stays open
    /// unless the user chooses to close anyway (the text is never dropped silently).
    private var closingAnyway = false
    private var isSavingToClose = false
    private func closeRequested() -> Bool {
        saveWindowState()
        if closingAnyway { return destroy() }
        guard !isSavingToClose else { return true }
        isSavingToClose = true
        controller.saveAll { [weak self] error in
            guard let self else { return }
            self.isSavingToClose = false
            if let error {
                // TRANSLATORS: button: close the window although the note could not be saved
                let failure = self.openNote.closingFailure(error, anyway: tr("Quit Anyway")) { [weak self] in
                    self?.closingAnyway = true
                    self?.window.close()
                }
                self.presentError(failure) { _ in }
            } else {
                self.destroyWindow()
            }
        }
        return true
    }

    override var nextResponder: Responder? { application }

    /// The synced folder is somewhere else now (another mount point): point at it.
    private func locateLibrary() {
        let chooser = FileChooser.selectFolder(title: tr("Locate the Synced Notes Folder"), parent: window,
                                               folder: ProcessInfo.processInfo.environment["HOME"])
        chooser.run { [weak self] path in
            guard let path else { return }
            self?.storage?.locateSyncedFolder(URL(fileURLWithPath: path, isDirectory: true))
        }
    }

    /// Saves what can be saved and closes, then `done`; text that could not be written stays
    /// in the recovery drafts (the documents keep them when a save fails or conflicts).
    func closeWithoutAsking(then done: @escaping @MainActor () -> Void) {
        saveWindowState()
        controller.saveAll { [weak self] _ in
            self?.destroyWindow()
            done()
        }
    }

    /// Destroys the window ourselves (disposing it now) and tells GTK the close is handled.
    private func destroy() -> Bool {
        openNote.abandon()  // closing anyway: the text is in a recovery draft, nothing is saved again
        window.destroy()
        return true
    }

    /// The note leaves this window's editor first: a note window showing it too takes its
    /// document over (its text, its saves), and otherwise the document closes.
    private func destroyWindow() {
        openNote.close()
        window.destroy()
    }

    private func saveWindowState() {
        var state = WindowState.load(from: stateURL)  // the note windows are the application's
        let size = window.defaultSize
        state.width = size.width > 0 ? size.width : state.width
        state.height = size.height > 0 ? size.height : state.height
        state.isMaximized = window.isMaximized
        state.sidebarWidth = paned.position
        state.sortOrder = controller.sortOrder
        state.notebook = controller.selectedNotebook
        state.openNote = controller.openID
        state.cursorOffset = controller.openID == nil ? nil : editor.buffer.cursorOffset
        state.topOffset = controller.openID == nil ? nil : editor.textView.topVisibleOffset
        try? state.save(to: stateURL)
    }

    func present() { window.present() }

    /// Opens the note at `url` (a notice's Open Note), selecting its row when the list shows it.
    /// Opens a note of the library; anything else (a file outside it, hidden in it or reached
    /// through a symbolic link) is not opened here, and a toast says so.
    func showNote(at url: URL) {
        guard let id = controller.id(of: url), controller.reveal(id) else {
            // TRANSLATORS: a toast: a file asked to open in the main window is not a note of the library.
            return toast.show(tr("“%s” is not in the library", String(url.lastPathComponent.prefix(80))))
        }
    }

    /// Opens the note at `url` with the cursor where the first of `terms` occurs in its text
    /// (below the title when it occurs there; the start when nowhere): the desktop's search.
    func showNote(at url: URL, cursorAtFirstOf terms: [String]) {
        showNote(at: url)
        openNote.whenShown(url) { [weak self] in
            guard let self else { return }
            let text = self.editor.text
            let offset = TextMatch.firstOffset(of: terms, in: text) ?? 0
            self.editor.placeCursor(at: offset)
        }
    }

    /// Pictures and files in notes: Insert ▸ Picture or File…, links to other notes and files,
    /// Remove Unused Attachments….
    private func wireAttachments() {
        insertFileAction.onActivate { [weak self] _ in self?.editor.attachments.chooseFiles(parent: self?.window) }
        removeUnusedAction.onActivate { [weak self] _ in
            guard let self else { return }
            self.unusedAttachments.run(library: self.controller.library.folder, parent: self.window, responder: self) { [weak self] message in
                self?.toast.show(message)
            }
        }
        window.add(insertFileAction)
        window.add(removeUnusedAction)
        editor.attachments.onNotice = { [weak self] message in self?.toast.show(message) }
        editor.links.onNotice = { [weak self] message in self?.toast.show(message) }
        editor.links.parentWindow = { [weak self] in self?.window }
        editor.links.onOpenNote = { [weak self] id in
            guard let self else { return }
            self.showNote(at: self.controller.library.folder.appendingPathComponent(id))
        }
    }

    /// Print… and Export as HTML or PDF… of the note, Export Notebook as HTML….
    private func wireExport() {
        exporter.isEnabled = false
        exporter.onNotice = { [weak self] message in self?.toast.show(message) }
        exportNotebookAction.isEnabled = false
        exportNotebookAction.onActivate { [weak self] _ in
            guard let self, let notebook = self.controller.selectedNotebook else { return }
            self.exporter.exportNotebook(notebook, library: self.controller.library.folder)
        }
        window.add(exportNotebookAction)
    }

    /// Search all notes (Ctrl+Shift+F; Ctrl+F outside the text), find in the note (Ctrl+F in
    /// the text), Pin Note, Sort by, notebooks — the window's actions for organizing.
    private func wireOrganizeActions() {
        searchAction.onActivate { [weak self] _ in self?.controller.search.focus() }
        findAction.onActivate { [weak self] _ in
            guard let self else { return }
            // The GNOME way: Ctrl+F finds where you are — in the note while writing in it, among
            // all notes from the list; Ctrl+Shift+F always searches all notes.
            if self.editor.isShowingNote, self.editor.textView.hasFocus || self.editor.findBar.isOpen && !self.controller.search.hasFocus {
                self.editor.findBar.open(replacing: false)
            } else {
                self.controller.search.focus()
            }
        }
        replaceAction.onActivate { [weak self] _ in
            guard let self, self.editor.isShowingNote, self.editor.isEditable else { return }
            self.editor.findBar.open(replacing: true)
        }
        findNextAction.onActivate { [weak self] _ in self?.editor.findBar.next() }
        findPreviousAction.onActivate { [weak self] _ in self?.editor.findBar.previous() }
        pinAction.isEnabled = false
        pinAction.onChangeState { [weak self] action, value in
            guard let self, let id = self.controller.list.selectedID else { return }
            action.isChecked = value == "true"
            self.controller.setPinned(value == "true", id: id)
        }
        sortAction.onChangeState { [weak self] action, value in
            guard let self, let order = NoteSortOrder(rawValue: value) else { return }
            action.choice = value
            self.controller.sortOrder = order
            self.saveWindowState()
        }
        moveNoteAction.isEnabled = false
        moveNoteAction.onActivate { [weak self] _ in self?.controller.askWhereToMoveSelected() }
        newNotebookAction.onActivate { [weak self] _ in self?.controller.askForNewNotebook() }
        renameNotebookAction.onActivate { [weak self] _ in self?.controller.askToRenameNotebook() }
        deleteNotebookAction.onActivate { [weak self] _ in self?.controller.askToDeleteNotebook() }
        for action in [renameNotebookAction, deleteNotebookAction] { action.isEnabled = false }
        controller.onNotebookChosen = { [weak self] notebook in
            self?.renameNotebookAction.isEnabled = notebook != nil
            self?.exportNotebookAction.isEnabled = notebook != nil
            self?.deleteNotebookAction.isEnabled = notebook != nil
        }
        for action in [searchAction, findAction, replaceAction, findNextAction, findPreviousAction, pinAction, sortAction, moveNoteAction, newNotebookAction, renameNotebookAction, deleteNotebookAction] {
            window.add(action)
        }
    }
}
