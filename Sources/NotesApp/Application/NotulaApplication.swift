import Foundation
import Gtk
import NotesCore

/// The application: one instance per user session (a second launch presents the first
/// window), its actions and keyboard shortcuts, start-up and shutdown.
/// The end of the error chain: it turns raw errors into words and options, and presents them
/// (one dialog at a time), or keeps them while no one may be asked (quitting, a move).
public final class NotulaApplication: Responder {
    let app = Application(id: notulaApplicationID)
    let directories: XDGDirectories
    let drafts: RecoveryDrafts
    /// Every window: the main window, the notes' own, Preferences, About, Keyboard Shortcuts.
    let windows: WindowRegistry
    /// `--new-note`, `--today` or `--quick-note` given to the first instance: done once it runs.
    private var actionOnActivate: String?
    private var stallMonitor: StallMonitor?
    /// One dialog at a time; held while quitting or while all notes move (`isHeld`).
    let presenter = ErrorDialogPresenter()
    var storage: StorageController!
    var style: StyleController!
    /// The library as it is now: made for the first window, or for the desktop's search
    /// before any window (a D-Bus activated service); one per run, handed to each main window.
    var library: LiveLibrary?
    private let shellSearch = ShellSearchProvider()
    private lazy var importer = ImportController(dataHome: directories.dataHome)
    /// The editor's text size in percent (`EditorZoom`).
    var zoom = EditorZoom.normal

    public init(directories: XDGDirectories = XDGDirectories()) {
        Localization.start()
        GtkRuntime.leaveLocaleToApplication()
        GtkRuntime.leaveOutOpenGLWhenDrawingWithCairo()
        self.directories = directories
        drafts = RecoveryDrafts(folder: directories.appState.appendingPathComponent("drafts", isDirectory: true))
        windows = WindowRegistry(stateURL: directories.appState.appendingPathComponent("window.json"))
        super.init()
        Responder.endOfChain = self  // errors of widgets detached from the window still reach the user
        storage = StorageController(directories: directories, application: self)
        // TRANSLATORS: the description of the --new-note command-line option (notula --help).
        app.addSwitch("new-note", description: tr("Create a new note and start typing"))
        // TRANSLATORS: the description of the --today command-line option (notula --help).
        app.addSwitch("today", description: tr("Open today's note, made from the template “Today” when there is none yet"))
        // TRANSLATORS: the description of the --quick-note command-line option (notula --help).
        app.addSwitch("quick-note", description: tr("Jot down a note in a small window; with TEXT (or - for standard input), file it without one"))
        app.onLocalOptions { [weak self] app, switches in
            if switches.contains("quick-note"), let status = self?.fileQuickNote() { return status }
            guard let action = ["new-note", "today", "quick-note"].first(where: switches.contains) else { return nil }
            do { try app.register() } catch { return nil }
            if app.isRemote {
                app.activateAction(action)  // the running instance does it
                return 0
            }
            self?.actionOnActivate = action
            return nil
        }
        shellSearch.index = { [weak self] then in
            guard let self else { return then(nil) }
            self.liveLibrary().whenListed(then)
        }
        shellSearch.hold = { [app] in app.hold() }
        shellSearch.release = { [app] in app.release() }
        shellSearch.onActivate = { [weak self] id, terms in self?.showSearchResult(id, terms: terms) }
        shellSearch.onLaunchSearch = { [weak self] terms in self?.search(terms) }
        // Before the application owns its bus name: a call D-Bus activation queued finds it.
        shellSearch.export()
        app.onOpen { [weak self] _, paths in self?.open(paths) }
        app.onStartup { [weak self] app in self?.startup(app) }
        app.onActivate { [weak self] _ in self?.activate() }
        app.onShutdown { [weak self] _ in self?.shutdown() }
    }

    /// Runs the GTK main loop; returns the exit status.
    public func run() -> Int32 { app.run() }

    private func startup(_ app: Application) {
        stallMonitor = StallMonitor.startIfRequested()
        if app.isService {
            // Started by the desktop's search: no window; gone once idle for a while.
            let seconds = ProcessInfo.processInfo.environment["NOTULA_IDLE_EXIT_SECONDS"].flatMap(UInt32.init) ?? 30
            app.setInactivityTimeout(seconds * 1000)
            DesktopReport.serviceStarted()
        }
        StyleSheet.load(css: AppStyle.css)
        StyleSheet.setDefaultIconName(notulaApplicationID)
        // Before any window exists, so the first frame is already light or dark.
        style = StyleController(choice: storage.preferences.colorScheme ?? .system)
        addActions()
        zoom = EditorZoom.clamped(storage.preferences.editorZoom ?? EditorZoom.normal)
        if zoom != EditorZoom.normal { EditorZoom.apply(zoom) }
        // Logout and Ctrl+C in a terminal: save what can be saved, keep the rest in recovery
        // drafts, and end without asking (no one may be there to answer).
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            UnixSignal.watch(signal) { [weak self] in self?.quitWithoutAsking() }
        }
    }

    /// The application's actions, and every action's keys (names, keys and menus: `ActionCatalog`).
    func addActions() {
        addAction("new-note") { [weak self] in self?.newNote() }
        addAction("today") { [weak self] in
            guard let self else { return }
            let window = self.windows.main ?? self.makeMainWindow()
            window.present()
            window.controller.templates.openToday()
        }
        addAction("quick-note") { [weak self] in self?.showQuickNote() }
        addAction("quit") { [weak self] in self?.quit() }
        addAction("preferences") { [weak self] in self?.showPreferences() }
        addAction("shortcuts") { [weak self] in self?.showShortcuts() }
        addAction("about") { [weak self] in self?.showAbout() }
        addAction("import-notes") { [weak self] in
            guard let self else { return }
            (self.windows.main ?? self.makeMainWindow()).present()
            self.importer.chooseSource()
        }
        addAction("zoom-in") { [weak self] in self?.setZoom(EditorZoom.larger(than: self?.zoom ?? 100)) }
        addAction("zoom-out") { [weak self] in self?.setZoom(EditorZoom.smaller(than: self?.zoom ?? 100)) }
        addAction("zoom-reset") { [weak self] in self?.setZoom(EditorZoom.normal) }
        ActionCatalog.setAccelerators(on: app)
    }

    /// An `app.` action (its keys and menu place are in `ActionCatalog`).
    private func addAction(_ name: String, _ handler: @escaping @MainActor () -> Void) {
        let action = SimpleAction(name: name)
        action.onActivate { _ in handler() }
        app.add(action)
    }

    private func activate() {
        if actionOnActivate == "quick-note", windows.main == nil {
            actionOnActivate = nil
            return showQuickNote()  // the small window alone, not the main window
        }
        let window = windows.main ?? makeMainWindow()
        window.present()
        restoreNoteWindows()
        switch actionOnActivate {
        case "new-note": window.controller.createNote()
        case "today": window.controller.templates.openToday()
        default: break
        }
        actionOnActivate = nil
    }

    /// The library as it is now, started when first asked for (by the desktop's search before
    /// any window, it lists and indexes the folder in the background).
    private func liveLibrary() -> LiveLibrary {
        if let library { return library }
        let live = LiveLibrary(folder: storage.libraryFolder, createsFolder: !storage.isSynced, indexFolder: directories.appCache)
        library = live
        if windows.main == nil { live.open() }  // a window starts it itself
        return live
    }

    func makeMainWindow() -> MainWindow {
        let live = library ?? {
            let live = LiveLibrary(folder: storage.libraryFolder, createsFolder: !storage.isSynced, indexFolder: directories.appCache)
            library = live
            return live
        }()
        let window = MainWindow(application: app, appResponder: self, library: live.library, createsLibraryFolder: !storage.isSynced,
                                drafts: drafts, stateURL: windows.stateURL,
                                indexFolder: directories.appCache, live: live)
        window.window.onDestroy { [weak self] _ in
            self?.windows.main = nil
            self?.quitIfLastWindowClosed()
        }
        configure(window.editor)
        window.onOpenInNewWindow = { [weak self] url in self?.openNoteWindow(url) }
        windows.main = window
        importer.window = window
        window.storage = storage
        storage.window = window
        presenter.parent = window.window
        window.controller.trash.retentionDays = storage.preferences.trashRetentionDays
        window.controller.templates.todaySettings = { [weak self] in
            guard let preferences = self?.storage.preferences else { return ("", .iso) }
            return (preferences.todayNotebookPath, preferences.todayTitleStyle)
        }
        // The history: the user's choice, versions an earlier Notula set aside, thinning (on its own queue).
        NoteHistory.standard.isEnabled = storage.preferences.keepHistory ?? true
        NoteHistory.standard.importDiscardedVersions(library: storage.libraryFolder)
        NoteHistory.standard.maintain()
        // A move stopped half-way (a crash) is finished first, off the main thread; the
        // window is up meanwhile, and lists the library the notes are in after it.
        storage.finishInterruptedMove { [weak self, weak window] finishedMove in
            guard let self, let window else { return }
            let listed: @MainActor () -> Void = { [weak self, weak window] in
                guard let self, let window else { return }
                // Information, not failures: said in the window.
                for message in [self.storage.loadProblem, finishedMove].compactMap({ $0 }) { window.notice.show(message) }
                self.storage.askOnFirstLaunch(home: URL(fileURLWithPath: self.directories.home))
                self.importer.offerOnce(storage: self.storage)
                DraftRestorer(drafts: self.drafts, library: window.controller.library, history: window.controller.openNote.history)
                    .offer(through: window, notice: { [weak window] message, note in
                        // TRANSLATORS: button of the notice about unsaved text kept as a new note: opens that note
                        window?.notice.show(message, action: (tr("Open Note"), { [weak window] in window?.showNote(at: note) }))
                    }) { [weak window] notes in
                        // The notes written from drafts, listed now (not left to the watcher alone).
                        guard let controller = window?.controller else { return }
                        let ids = notes.compactMap(controller.id(of:))
                        if !ids.isEmpty { controller.live.refresh(ids) }
                    }
            }
            if self.storage.libraryFolder.standardizedFileURL != window.controller.library.folder.standardizedFileURL {
                window.controller.switchLibrary(to: self.storage.libraryFolder, createsFolder: !self.storage.isSynced, then: listed)
            } else {
                window.controller.start(then: listed)
            }
        }
        return window
    }

    func showPreferences() {
        let window = windows.main ?? makeMainWindow()
        if windows.preferences == nil {
            let preferences = PreferencesWindow(parent: window.window, storage: storage, style: style)
            preferences.window.onDestroy { [weak self] _ in self?.windows.preferences = nil }
            preferences.onTrashRetentionChanged = { [weak window] days in
                window?.controller.trash.retentionDays = days
                window?.controller.trash.purgeOld()
            }
            preferences.onReadableWidthChanged = { [weak self] on in
                for editor in self?.windows.editors ?? [] { editor.usesReadableWidth = on }
            }
            preferences.onVimKeysChanged = { [weak self] on in
                for editor in self?.windows.editors ?? [] { editor.usesVimKeys = on }
            }
            preferences.onSpellingChanged = { [weak self] in
                guard let self else { return }
                for editor in self.windows.editors { editor.configureSpelling(self.storage.preferences) }
            }
            preferences.onKeepHistoryChanged = { on in NoteHistory.standard.isEnabled = on }
            preferences.onClearHistory = { [weak self] in self?.askToClearHistory() }
            windows.preferences = preferences
        }
        windows.preferences?.present()
    }

    /// Preferences ▸ Clear History asks first: the versions cannot come back (the notes stay).
    private func askToClearHistory() {
        let question = RecoverableFailure(
            failureReason: tr("Clear the history of all notes?"),
            recoverySuggestion: tr("Every version kept on this computer will be deleted for good. Your notes themselves are not changed."),
            // TRANSLATORS: a button: deletes every kept version of every note.
            actions: [.cancel(), RecoveryAction(tr("Clear History"), role: .destructive) { [weak self] done in
                self?.clearHistory()
                done(false)
            }])
        presentError(question) { _ in }
    }

    private func clearHistory() {
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { try NoteHistory.standard.clear() }
            DispatchQueue.main.async { [weak self] in
                switch result {
                case .success: self?.windows.main?.toast.show(tr("History cleared"))
                case .failure(let error): self?.presentError(OperationError(.clearHistory, note: nil, underlying: error)) { _ in }
                }
            }
        }
    }

    /// Built when asked for, not at start as a help overlay would be: GTK 4.8's accessibility
    /// bridge crashes when a screen reader lists a top-level window never shown (NULL path).
    private func showShortcuts() {
        if let shortcuts = windows.shortcuts { shortcuts.present(); return }
        let shortcuts = ActionCatalog.makeShortcutsWindow()
        shortcuts.transientFor = windows.main?.window
        shortcuts.isModal = true
        windows.shortcuts = shortcuts
        shortcuts.present()
    }

    private func showAbout() {
        if let about = windows.about { about.present(); return }
        let about = AboutDialog()
        about.programName = "Notula"
        about.version = notulaVersion
        about.comments = tr("Plain-text notes that save themselves")
        about.website = "https://github.com/notula/notula"
        about.copyright = tr("© 2026 The Notula developers")
        about.setAuthors([tr("The Notula developers")])
        about.setLicense(.gpl3OrLater)  // as data/io.github.notula.Notula.metainfo.xml says
        // TRANSLATORS: your names, one per line; shown under "Translated by" in About.
        let translators = tr("translator-credits")
        about.translatorCredits = translators == "translator-credits" ? nil : translators  // English: no one
        about.logoIconName = notulaApplicationID
        about.transientFor = windows.main?.window
        about.isModal = true
        windows.about = about
        about.present()
    }

    private func newNote() {
        let window = windows.main ?? makeMainWindow()
        window.present()
        window.controller.createNote()
    }

    /// Quitting closes every window the normal way, so unsaved text is saved (or the user is
    /// asked) before the application ends; the session keeps which notes had windows.
    private func quit() {
        if !windows.closeAll() { app.quit() }
    }

    private func quitWithoutAsking() {
        presenter.isHeld = true  // no one may be there to answer
        windows.closeAllWithoutAsking { [weak self] in self?.app.quit() }
    }

    /// A service started by the desktop's search stays a while after its last window; a quit
    /// asked for ends once every window has closed.
    func quitIfLastWindowClosed() {
        if windows.isQuitting, windows.isEmpty { app.quit() }
    }

    // MARK: Responder (the end of the chain)

    /// Raw errors that reached the application untranslated get words and an OK (and Show in
    /// Files when a path is known).
    override public func willPresentError(_ error: Error) -> Error? {
        if error is RecoverableFailure { return error }
        let explanation = ErrorTranslator.explain(error)
        // TRANSLATORS: a button that closes an error message.
        var actions: [RecoveryAction] = [.cancel(tr("OK"))]
        let underlying = (error as? OperationError)?.underlying ?? error
        if let path = (underlying as? StorageError)?.path {
            let folder = (path as NSString).deletingLastPathComponent
            // TRANSLATORS: a button: opens the file manager at the folder of the file concerned.
            actions.append(RecoveryAction(tr("Show in Files")) { [weak self] done in
                FileBrowser.showFolder(PathBytes.bytes(folder), parent: self?.windows.main?.window)
                done(false)
            })
        }
        return RecoverableFailure(failureReason: explanation.failureReason, recoverySuggestion: explanation.recoverySuggestion,
                                actions: actions, underlyingError: error)
    }

    override public func presentError(_ error: Error, completion: @escaping @MainActor (Bool) -> Void) {
        guard let recoverable = willPresentError(error) as? RecoverableFailure else { completion(false); return }
        presenter.present(recoverable, completion: completion)
    }

    private func shutdown() {
        windows.saveAllAndWait()
        // The stores' write-ahead logs are folded back and removed: nothing grows from session to session.
        library?.close()
        NoteHistory.standard.close()  // after the last versions are on disk
    }
}
