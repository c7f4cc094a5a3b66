import Foundation
import Gtk
import NotesCore

/// The application: one instance per user session (a second launch presents the first
/// window), its actions and keyboard shortcuts, start-up and shutdown.
public final class NotulaApplication {
    private let app = Application(id: notulaApplicationID)
    private let directories: XDGDirectories
    private var mainWindow: MainWindow?
    private var createNoteOnActivate = false
    private var stallMonitor: StallMonitor?

    public init(directories: XDGDirectories = XDGDirectories()) {
        self.directories = directories
        app.addSwitch("new-note", description: "Create a new note and start typing")
        app.onLocalOptions { [weak self] app, switches in
            guard switches.contains("new-note") else { return nil }
            do { try app.register() } catch { return nil }
            if app.isRemote {
                app.activateAction("new-note")  // the running instance makes the note
                return 0
            }
            self?.createNoteOnActivate = true
            return nil
        }
        app.onStartup { [weak self] app in self?.startup(app) }
        app.onActivate { [weak self] _ in self?.activate() }
        app.onShutdown { [weak self] _ in self?.shutdown() }
    }

    /// Runs the GTK main loop; returns the exit status.
    public func run() -> Int32 { app.run() }

    private func startup(_ app: Application) {
        stallMonitor = StallMonitor.startIfRequested()
        StyleSheet.load(css: AppStyle.css)
        StyleSheet.setDefaultIconName(notulaApplicationID)
        addAction("new-note", accelerators: ["<Control>n"]) { [weak self] in self?.newNote() }
        addAction("quit", accelerators: ["<Control>q"]) { [weak self] in self?.quit() }
        app.setAccelerators(["<Control>w"], for: "window.close")
        // Logout and Ctrl+C in a terminal: save what can be saved, keep the rest in recovery
        // drafts, and end without asking (no one may be there to answer).
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            UnixSignal.watch(signal) { [weak self] in self?.quitWithoutAsking() }
        }
    }

    private func addAction(_ name: String, accelerators: [String], _ handler: @escaping () -> Void) {
        let action = SimpleAction(name: name)
        action.onActivate { _ in handler() }
        app.add(action)
        app.setAccelerators(accelerators, for: "app.\(name)")
    }

    private func activate() {
        let window = mainWindow ?? makeMainWindow()
        window.present()
        if createNoteOnActivate {
            createNoteOnActivate = false
            window.controller.createNote()
        }
    }

    private func makeMainWindow() -> MainWindow {
        let library = NoteLibrary(folder: directories.localLibrary)
        let window = MainWindow(application: app, library: library,
                                stateURL: directories.appState.appendingPathComponent("window.json"))
        window.window.onDestroy { [weak self] _ in self?.mainWindow = nil }
        mainWindow = window
        window.controller.start()
        return window
    }

    private func newNote() {
        let window = mainWindow ?? makeMainWindow()
        window.present()
        window.controller.createNote()
    }

    /// Quitting closes the window the normal way, so its unsaved text is saved (or the user
    /// is asked) before the application ends.
    private func quit() {
        guard let window = mainWindow else { app.quit(); return }
        window.window.close()
    }

    private func quitWithoutAsking() {
        mainWindow?.closeWithoutAsking()
        app.quit()
    }

    private func shutdown() {
        try? mainWindow?.controller.saveAllAndWait()
    }
}
