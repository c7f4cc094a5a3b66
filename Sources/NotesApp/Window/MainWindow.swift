import Foundation
import Gtk
import NotesCore

/// The one window: header bar, notes list on the left, editor on the right, a toast above.
/// Remembers its size and divider position in the state folder.
final class MainWindow {
    let window: ApplicationWindow
    let list = NotesListView()
    let editor = EditorView()
    let toast = ToastView()
    let status = StatusLight()
    let alerts: AlertPresenter
    let controller: NotesController
    private let paned = Paned(.horizontal)
    private let deleteAction = SimpleAction(name: "delete-note")
    private let stateURL: URL

    init(application: Application, library: NoteLibrary, stateURL: URL) {
        self.stateURL = stateURL
        window = ApplicationWindow(application: application)
        window.title = "Notula"
        alerts = AlertPresenter(parent: window)
        let openNote = OpenNoteController(editor: editor, status: status, alerts: alerts)
        controller = NotesController(library: library, list: list, openNote: openNote, toast: toast, alerts: alerts)

        window.titlebar = makeHeaderBar()
        paned.startChild = list.root
        paned.endChild = editor.root
        let overlay = Overlay()
        overlay.child = paned
        overlay.addOverlay(toast.root)
        window.child = overlay

        let state = WindowState.load(from: stateURL)
        window.setDefaultSize(width: state.width, height: state.height)
        paned.position = state.sidebarWidth
        if state.isMaximized { window.maximize() }

        deleteAction.isEnabled = false
        deleteAction.onActivate { [weak self] _ in self?.controller.deleteSelected() }
        window.add(deleteAction)
        controller.onSelectionAvailable = { [weak self] available in self?.deleteAction.isEnabled = available }

        window.onCloseRequest { [weak self] _ in self?.closeRequested() ?? false }
        if ProcessInfo.processInfo.environment["NOTULA_REPORT_MAPPED"] != nil {
            window.onMap { _ in StartupReport.windowMapped() }
        }
    }

    private func makeHeaderBar() -> HeaderBar {
        let header = HeaderBar()
        let newNote = Button(iconName: "document-new-symbolic")
        newNote.actionName = "app.new-note"
        newNote.tooltip = "New Note (Ctrl+N)"
        newNote.accessibleLabel = "New Note"
        header.packStart(newNote)

        let noteSection = Menu()
        noteSection.append("New Note", action: "app.new-note")
        noteSection.append("Delete Note", action: "win.delete-note")
        let appSection = Menu()
        appSection.append("Close Window", action: "window.close")
        appSection.append("Quit", action: "app.quit")
        let menu = Menu()
        menu.appendSection(noteSection)
        menu.appendSection(appSection)
        let menuButton = MenuButton(iconName: "open-menu-symbolic", menu: menu)
        menuButton.isPrimary = true
        menuButton.tooltip = "Main Menu (F10)"
        menuButton.accessibleLabel = "Main Menu"
        header.packEnd(menuButton)
        header.packEnd(status.root)
        return header
    }

    /// Saves before the window goes; if saving fails the window stays open unless the user
    /// chooses to close anyway (the text is never dropped silently).
    private var closingAnyway = false
    private func closeRequested() -> Bool {
        saveWindowState()
        if closingAnyway { return destroy() }
        do {
            try controller.saveAllAndWait()
            return destroy()
        } catch {
            alerts.present(
                title: "Your latest changes could not be saved",
                detail: NotesController.describe(error) + "\n\nKeep the window open to copy your text elsewhere, or close and lose the unsaved changes.",
                choices: [
                    .init("Keep Window Open"),
                    .init("Close Anyway", role: .destructive) { [weak self] in
                        self?.closingAnyway = true
                        self?.window.close()
                    },
                ])
            return true
        }
    }

    /// Saves what can be saved and closes; text that could not be written stays in the
    /// recovery drafts (the documents keep them when a save fails or conflicts).
    func closeWithoutAsking() {
        saveWindowState()
        try? controller.saveAllAndWait()
        window.destroy()
    }

    /// Destroys the window ourselves (disposing it now) and tells GTK the close is handled.
    private func destroy() -> Bool {
        window.destroy()
        return true
    }

    private func saveWindowState() {
        var state = WindowState()
        let size = window.defaultSize
        state.width = size.width > 0 ? size.width : state.width
        state.height = size.height > 0 ? size.height : state.height
        state.isMaximized = window.isMaximized
        state.sidebarWidth = paned.position
        try? state.save(to: stateURL)
    }

    func present() { window.present() }
}
