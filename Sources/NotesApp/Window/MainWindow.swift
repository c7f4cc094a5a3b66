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
    /// At the top left; New Note from Template… lists the templates under it.
    private let newNoteButton = Button(iconName: "document-new-symbolic")
    let openNote: OpenNoteController
    let controller: NotesController
    private let paned = Paned(.horizontal)
    /// The editor, or what several selected notes are (`SelectionPane`) in its place.
    private let editorPlace = Stack()
    private let selectionPane = SelectionPane()
    private let actions: WindowActions
    private let exporter: NoteExporter
    /// Open in New Window (the selected note, or a row's context menu or middle-click).
    var onOpenInNewWindow: ((URL) -> Void)?
    lazy var unusedAttachments = UnusedAttachments(queue: controller.io)
    private let stateURL: URL
    private var closer: WindowCloser!
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
        window.title = "Notula"
        openNote = OpenNoteController(editor: editor, status: status, drafts: drafts)
        controller = NotesController(library: library, list: list, openNote: openNote, toast: toast,
                                     createsLibraryFolder: createsLibraryFolder, indexFolder: indexFolder, sharedLive: live)
        exporter = NoteExporter(window: window, editor: editor)
        ExportReport.runBenchExport { [weak exporter] url in exporter?.exportPDF(to: url) }
        actions = WindowActions(window: window)
        InputReport.watch(window)
        super.init()
        controller.sidebar.prepend(banner.root)
        controller.sidebar.prepend(notice.root)
        controller.presenter.onLibraryUnavailable = { [weak self] error in
            guard let self else { return }
            // "Permission denied" → "permission denied"; a reason naming a path keeps its case.
            let explanation = (error as? StorageError)?.explanation ?? "\(error)"
            let reason = explanation.prefix(1).lowercased(with: Localization.locale) + explanation.dropFirst()
            self.banner.show(folder: self.controller.library.folder.path, reason: reason)
        }
        controller.presenter.onLibraryAvailable = { [weak self] in self?.banner.hide() }
        controller.presenter.notice = { [weak self] message, action in self?.notice.show(message, action: action) }
        banner.onRetry = { [weak self] in self?.controller.start() }
        banner.onLocate = { [weak self] in self?.locateLibrary() }
        window.owner = self
        openNote.window = window
        controller.window = window

        window.titlebar = makeHeaderBar()
        paned.startChild = controller.sidebar
        editorPlace.add(openNote.pane, name: "note")
        editorPlace.add(selectionPane.root, name: "selection")
        editorPlace.visibleChildName = "note"
        selectionPane.root.isVisible = false
        paned.endChild = editorPlace
        let overlay = Overlay()
        overlay.child = paned
        overlay.addOverlay(toast.root)
        window.child = overlay

        // A size remembered from a larger screen (or a window a tall sidebar once stretched) fits this one.
        let screen = Window.largestScreenSize ?? (state.width, state.height)
        window.setDefaultSize(width: min(state.width, screen.width), height: min(state.height, screen.height))
        paned.position = state.sidebarWidth
        if state.isMaximized { window.maximize() }

        list.onOpenInNewWindow = { [weak self] id in
            guard let self else { return }
            self.onOpenInNewWindow?(self.controller.library.folder.appendingPathComponent(id))
        }
        controller.sortOrder = state.sortOrder ?? .modified
        controller.session.pending = SessionRestorer.Restoring(note: state.openNote, cursorOffset: state.cursorOffset ?? 0,
                                                         topOffset: state.topOffset ?? 0, notebook: state.notebook)
        wireActions(sortOrder: state.sortOrder ?? .modified)
        wireAttachments()
        wireExport()
        controller.onSelectionAvailable = { [weak self] available in
            guard let self else { return }
            self.actions.setEnabled(available, "delete-note", "open-in-new-window", "pin-note", "move-note", "add-tag", "remove-tag")
            self.exporter.isEnabled = available
            self.actions.setChecked(self.controller.selectedIsPinned, "pin-note")
        }

        // Ctrl+Z undoes what a toast offers to undo when it says so (links rewritten in other notes).
        let undoKeys = KeyController()
        undoKeys.runBeforeWidget()
        undoKeys.onKeyPressed { [weak self] _, key, modifiers in
            guard let self, key == Key.letter("z"), modifiers & Key.modifierMask == Key.primaryMask else { return false }
            return self.toast.controlZ()
        }
        window.addController(undoKeys)
        // Saves before the window goes, in the background, the window answering meanwhile.
        // TRANSLATORS: button: close the window although the note could not be saved
        closer = WindowCloser(window: window, openNote: openNote, responder: self, anywayLabel: tr("Quit Anyway")) { [weak controller] done in
            controller?.saveAll(then: done)
        }
        window.onCloseRequest { [weak self] _ in
            guard let self else { return false }
            self.saveWindowState()
            return self.closer.closeRequested()
        }
        if StartupReport.isOn {
            window.onMap { _ in StartupReport.windowMapped() }
        }
    }

    private func makeHeaderBar() -> HeaderBar {
        let header = WindowHeader.make(for: .main, status: status)
        newNoteButton.actionName = "app.new-note"
        newNoteButton.tooltip = tr("New Note (Ctrl+N)")
        newNoteButton.accessibleLabel = tr("New Note")
        header.packStart(newNoteButton)
        return header
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
        closer.closeWithoutAsking(then: done)
    }

    private func saveWindowState() {
        var state = WindowState.load(from: stateURL)  // the note windows are the application's
        let size = window.defaultSize
        state.width = size.width > 0 ? size.width : state.width
        state.height = size.height > 0 ? size.height : state.height
        state.isMaximized = window.isMaximized
        state.sidebarWidth = paned.position
        state.sortOrder = controller.sortOrder
        state.notebook = controller.notebooks.selected
        state.openNote = controller.openID
        state.cursorOffset = controller.openID == nil ? nil : editor.buffer.cursorOffset
        state.topOffset = controller.openID == nil ? nil : editor.textView.topVisibleOffset
        try? state.save(to: stateURL)
    }

    func present() { window.present() }

    /// Opens the note at `url` (a notice's Open Note), selecting its row when the list shows it.
    /// Opens a note of the library; anything else (a file outside it, hidden in it or reached
    /// through a symbolic link) is not opened here, and a toast says so.
    func showNote(at url: URL, atHeading heading: String? = nil) {
        guard let id = controller.id(of: url), controller.reveal(id, atHeading: heading) else {
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
        actions.add("insert-file") { [weak self] in self?.editor.attachments.chooseFiles(parent: self?.window) }
        actions.add("remove-unused-attachments") { [weak self] in
            guard let self else { return }
            self.unusedAttachments.run(library: self.controller.library.folder, parent: self.window, responder: self) { [weak self] message in
                self?.toast.show(message)
            }
        }
        editor.attachments.onNotice = { [weak self] message in self?.toast.show(message) }
        editor.links.onNotice = { [weak self] message in self?.toast.show(message) }
        editor.links.parentWindow = { [weak self] in self?.window }
        editor.links.onOpenNote = { [weak self] id, heading in
            guard let self else { return }
            self.showNote(at: self.controller.library.folder.appendingPathComponent(id), atHeading: heading)
        }
    }

    /// Print… and Export as HTML or PDF… of the note, Export Notebook as HTML….
    private func wireExport() {
        exporter.isEnabled = false
        exporter.onNotice = { [weak self] message in self?.toast.show(message) }
        actions.add("export-notebook", enabled: false) { [weak self] in
            guard let self, let notebook = self.controller.notebooks.selected else { return }
            self.exporter.exportNotebook(notebook, library: self.controller.library.folder)
        }
    }

    /// Several notes selected: their pane in the editor's place, and the actions on them; one
    /// again: the editor.
    private func showSelection(_ selection: NoteSelection) {
        let several = selection.isMultiple
        // The page not shown is hidden too, so assistive technologies do not find it.
        if several { selectionPane.root.isVisible = true } else { openNote.pane.isVisible = true }
        editorPlace.visibleChildName = several ? "selection" : "note"
        if several { openNote.pane.isVisible = false } else { selectionPane.root.isVisible = false }
        actions.setEnabled(several, "pin-selected", "unpin-selected", "export-selected")
        actions.setEnabled(!several && list.selectedID != nil, "open-in-new-window", "pin-note")
        exporter.isEnabled = !several && list.selectedID != nil
        guard several else { return }
        let first = list.orderedIDs.lazy.filter(selection.contains).prefix(SelectionPane.titlesShown)
        selectionPane.show(count: selection.count, firstTitles: first.map { self.list.summary($0)?.title ?? PathBytes.display($0) })
    }

    /// The note's actions (Delete, Browse Versions, Open in New Window, Pin, Move), search all
    /// notes (Ctrl+Shift+F; Ctrl+F outside the text), find in the note (Ctrl+F in the text),
    /// Sort by, notebooks.
    private func wireActions(sortOrder: NoteSortOrder) {
        // With several notes selected, Delete, Move and the tags act on all of them (issue #47).
        actions.add("delete-note", enabled: false) { [weak self] in
            guard let self else { return }
            if self.list.selectedNotes.isMultiple {
                self.controller.bulk.run(.trash, ids: self.list.selectedIDs)
            } else {
                self.controller.trash.deleteSelected()
            }
        }
        actions.add("add-tag", enabled: false) { [weak self] in
            guard let self else { return }
            self.controller.bulk.askForTag(adding: true, self.list.selectedIDs)
        }
        actions.add("remove-tag", enabled: false) { [weak self] in
            guard let self else { return }
            self.controller.bulk.askForTag(adding: false, self.list.selectedIDs)
        }
        actions.add("pin-selected", enabled: false) { [weak self] in
            guard let self else { return }
            self.controller.bulk.setPinned(true, self.list.selectedIDs)
        }
        actions.add("unpin-selected", enabled: false) { [weak self] in
            guard let self else { return }
            self.controller.bulk.setPinned(false, self.list.selectedIDs)
        }
        actions.add("export-selected", enabled: false) { [weak self] in
            guard let self else { return }
            self.exporter.exportNotes(self.list.selectedIDs, library: self.controller.library.folder)
        }
        list.onSelectedNotesChanged = { [weak self] selection in self?.showSelection(selection) }
        actions.add("browse-versions") { [weak self] in self?.openNote.showHistory() }
        actions.add("new-from-template") { [weak self] in
            guard let self else { return }
            self.controller.templates.choose(on: self.newNoteButton)
        }
        actions.add("open-in-new-window", enabled: false) { [weak self] in
            guard let self, let id = self.controller.list.selectedID else { return }
            self.onOpenInNewWindow?(self.controller.library.folder.appendingPathComponent(id))
        }
        actions.add("search") { [weak self] in self?.controller.search.focus() }
        actions.addFinding(in: editor) { [weak self] in
            guard let self else { return }
            // The GNOME way: Ctrl+F finds where you are — in the note while writing in it, among
            // all notes from the list; Ctrl+Shift+F always searches all notes.
            if self.editor.isShowingNote, self.editor.textView.hasFocus || self.editor.findBar.isOpen && !self.controller.search.hasFocus {
                self.editor.findBar.open(replacing: false)
            } else {
                self.controller.search.focus()
            }
        }
        actions.addCheck("pin-note", enabled: false) { [weak self] pinned in
            guard let self, let id = self.controller.list.selectedID else { return false }
            self.controller.setPinned(pinned, id: id)
            return true
        }
        actions.addChoice("sort", current: sortOrder.rawValue) { [weak self] value in
            guard let self, let order = NoteSortOrder(rawValue: value) else { return false }
            self.controller.sortOrder = order
            self.saveWindowState()
            return true
        }
        actions.add("move-note", enabled: false) { [weak self] in
            guard let self else { return }
            if self.list.selectedNotes.isMultiple {
                self.controller.bulk.askWhereToMove(self.list.selectedIDs)
            } else {
                self.controller.notebooks.askWhereToMoveSelected()
            }
        }
        actions.add("new-notebook") { [weak self] in self?.controller.notebooks.askForNew() }
        actions.add("rename-notebook", enabled: false) { [weak self] in self?.controller.notebooks.askToRename() }
        actions.add("delete-notebook", enabled: false) { [weak self] in self?.controller.notebooks.askToDelete() }
        controller.notebooks.onChosen = { [weak self] notebook in
            self?.actions.setEnabled(notebook != nil, "rename-notebook", "export-notebook", "delete-notebook")
        }
    }
}
