import Dispatch
import Foundation
import Synchronization
import Gtk
import NotesCore

/// Where the notes live — this computer or a synced folder — and moving all of them between
/// the two: preflight, confirmation, a progress dialog with Cancel, the open note held still
/// and re-pointed after, the preference flipped only when every note is across. Errors go up
/// the window's responder chain; while the files move, the application asks nothing.
final class StorageController {
    private let store: PreferencesStore
    private(set) var preferences: Preferences
    let localLibrary: URL
    private let stateFolder: URL
    private weak var application: NotulaApplication?
    weak var window: MainWindow?
    /// Said once the window is up: the preferences file could not be used.
    private(set) var loadProblem: String?
    /// Called after the library moved (Preferences refreshes itself).
    var onLibraryMoved: (() -> Void)?

    init(directories: XDGDirectories, application: NotulaApplication) {
        store = PreferencesStore(configFolder: directories.appConfig)
        let loaded = store.load()
        preferences = loaded.preferences
        loadProblem = loaded.problem
        localLibrary = directories.localLibrary
        stateFolder = directories.appState
        self.application = application
    }

    var libraryFolder: URL { preferences.libraryFolder(localLibrary: localLibrary) }
    /// A synced library is never created when missing, even one whose folder is not set.
    var isSynced: Bool { preferences.storage == .synced }

    // MARK: Start

    /// Finishes a move that was stopped half-way (a crash, power loss) before anything is
    /// listed — copying and verifying off the main thread, the window up meanwhile — then the
    /// preference points where the notes are and `done` gets what to tell the user, if anything.
    func finishInterruptedMove(then done: @escaping @MainActor (String?) -> Void) {
        let stateFolder = self.stateFolder
        var dialog: MoveProgressDialog?
        // Main thread: shows how far the move got; nil when it is over.
        let show: @MainActor ((destination: String, moved: Int, total: Int)?) -> Void = { [weak self] progress in
            guard let (destination, moved, total) = progress else {
                dialog?.close()
                return
            }
            guard let parent = self?.window?.window else { return }
            if dialog == nil {
                // TRANSLATORS: %s is the folder the notes are moving to.
                let message = tr("Notula was stopped while moving your notes to “%s”. It is finishing the move; nothing is removed before it is copied.", destination)
                // TRANSLATORS: the title of the progress window of a move of all notes that is being finished.
                dialog = MoveProgressDialog(parent: parent, message: message, title: tr("Finishing the Move"), cancellable: false)
                dialog?.show()
            }
            dialog?.update(done: moved, total: total)
        }
        let history = window?.controller.openNote.history  // the notes' histories follow them
        DispatchQueue.global(qos: .userInitiated).async {
            var shown = 0.0
            let outcome = LibraryMover.finishInterruptedMove(stateFolder: stateFolder, history: history) { destination, moved, total in
                // At most about 20 updates a second reach the window.
                let now = Date().timeIntervalSinceReferenceDate
                guard moved == 0 || moved == total || now - shown >= 0.05 else { return }
                shown = now
                DispatchQueue.main.async { show((destination, moved, total)) }
            }
            DispatchQueue.main.async { [weak self] in
                show(nil)
                done(self?.apply(outcome))
            }
        }
    }

    private func apply(_ outcome: LibraryMover.RecoveryOutcome) -> String? {
        switch outcome {
        case .nothingToDo:
            return nil
        case .finished(let journal):
            let toLocal = URL(fileURLWithPath: journal.destination).standardizedFileURL == localLibrary.standardizedFileURL
            updatePreferences {
                $0.storage = toLocal ? .local : .synced
                if !toLocal { $0.syncedFolder = journal.destination }
            }
            // TRANSLATORS: %s is the folder the notes were moved to.
            let finished = tr("Notula was stopped while moving your notes to “%s”. It has finished the move: every note is there.", journal.destination)
            let pairs = journal.renamedNames
            // TRANSLATORS: %1$d is a count, %2$s a list such as “a:b.md → a_b.md, Todo.md → Todo (2).md”.
            return pairs.isEmpty ? finished : finished + " " + trn("%1$d name changed on the way: %2$s.", "%1$d names changed on the way: %2$s.",
                                                                   pairs.count, pairs.count, MoveRename.list(pairs))
        case .destinationUnavailable(let journal):
            // TRANSLATORS: %s is the folder the notes were being moved to.
            return tr("Notula was stopped while moving your notes to “%s”, which cannot be reached now. Connect it and start Notula again to finish the move; nothing was removed before it was copied.", journal.destination)
        case .damagedJournal(let aside):
            // TRANSLATORS: %s is the full path the damaged record of a move was renamed to.
            return tr("Notula found the record of an unfinished move of your notes, but it is damaged, so nothing was moved by it (it was kept as “%s”). Every note is still in one of the two folders: if some are missing from the list, look in the other folder.", aside)
        }
    }

    /// First launch (no choice made yet): offer a known sync folder, or say how to sync later.
    func askOnFirstLaunch(home: URL) {
        guard preferences.storage == nil, let window else { return }
        guard let found = SyncFolderDetector.find(home: home).first else {
            // Nothing to choose between: say it in the window, not in a dialog.
            updatePreferences { $0.storage = .local }
            window.notice.show(tr("Your notes are kept on this computer. To have them on your other devices too, set up a sync client (Syncthing, Nextcloud or Dropbox), then choose its folder in Preferences: Notula moves every note there."),
                               // TRANSLATORS: a button in the notice about syncing: opens Preferences.
                               action: (tr("Set Up Sync…"), { [weak application] in application?.showPreferences() }))
            return
        }
        let question = RecoverableFailure(
            // TRANSLATORS: %s is a sync program: Syncthing, Nextcloud, ownCloud or Dropbox.
            failureReason: tr("Keep your notes in your %s folder?", found.client),
            // TRANSLATORS: %1$s is the sync program's folder, %2$s the notes folder inside it, %3$s the sync program (Syncthing, Nextcloud, ownCloud or Dropbox).
            recoverySuggestion: tr("Notula found “%1$s”. Notes kept in “%2$s” are synced to your other devices by %3$s. You can change this later in Preferences.", found.folder.path, found.notesFolder.path, found.client),
            actions: [
                RecoveryAction(tr("Use Synced Folder"), role: .default) { [weak self] done in
                    self?.move(to: .synced, folder: found.notesFolder, confirm: false)
                    done(false)
                },
                RecoveryAction(tr("Keep on This Computer"), role: .cancel) { [weak self] done in
                    self?.updatePreferences { $0.storage = .local }
                    done(false)
                },
            ])
        window.presentError(question) { _ in }
    }

    // MARK: Moving all notes

    /// Moves every note to `folder` (the local library or a synced folder), then makes it the
    /// library. Asks first when `confirm`.
    func move(to storage: Preferences.Storage, folder: URL, confirm: Bool = true, completion: (@MainActor (Bool) -> Void)? = nil) {
        guard let window else { completion?(false); return }
        let source = libraryFolder
        if storage == .local, isSynced, LibraryFolderCheck.problem(with: source.path) != nil {
            // The synced folder set is not one that can hold notes (a hand-edited path, "/"):
            // nothing was read from it, so there is nothing to move: use this computer's folder.
            updatePreferences { $0.storage = .local }
            window.controller.switchLibrary(to: folder, createsFolder: true) { completion?(true) }
            onLibraryMoved?()
            return
        }
        let mover = LibraryMover(source: source, destination: folder, stateFolder: stateFolder, history: window.controller.openNote.history)
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { try mover.preflight() }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .failure(let error):
                    self.report(error, retry: { self.move(to: storage, folder: folder, confirm: confirm, completion: completion) },
                                completion: completion)
                case .success(let plan):
                    self.confirmAndRun(plan, mover: mover, storage: storage, confirm: confirm, window: window, completion: completion)
                }
            }
        }
    }

    private func confirmAndRun(_ plan: LibraryMover.Preflight, mover: LibraryMover, storage: Preferences.Storage, confirm: Bool,
                               window: MainWindow, completion: (@MainActor (Bool) -> Void)?) {
        let count = plan.noteCount
        // TRANSLATORS: %1$s is the folder the notes are in now, %2$s the folder they move to.
        var details = tr("Every note, notebook and file in “%1$s” moves to “%2$s”.", mover.source.path, mover.destination.path)
        let onlyTaken = plan.renames.allSatisfy { $0.reason == .nameTaken }
        if !plan.renames.isEmpty && onlyTaken {
            // TRANSLATORS: “name (2).md” shows how the second file of the same name is renamed.
            details += " " + trn("%d has the same name as a file already there; both are kept (“name (2).md”).", "%d have the same name as files already there; both are kept (“name (2).md”).", plan.renames.count)
                + " " + MoveRename.list(plan.renames) + "."
        } else if !plan.renames.isEmpty {
            details += " " + Self.renamesBeforeMove(plan.renames)
        }
        let start = { [weak self] in self?.run(plan, mover: mover, storage: storage, window: window, completion: completion) }
        guard confirm || !plan.renames.isEmpty else {
            start()
            return
        }
        // TRANSLATORS: buttons: move every note; with files of the same name at the destination, keep both and move; with names the destination cannot hold, rename them and move.
        let go = plan.renames.isEmpty ? tr("Move Notes") : onlyTaken ? tr("Keep Both and Move") : tr("Rename and Move")
        let question = RecoverableFailure(
            failureReason: storage == .synced
                ? trn("Move %d note to the synced folder?", "Move %d notes to the synced folder?", count)
                : trn("Move %d note to this computer?", "Move %d notes to this computer?", count),
            recoverySuggestion: details,
            actions: [RecoveryAction(go, role: .default) { done in start(); done(false) },
                      RecoveryAction(tr("Cancel"), role: .cancel) { done in completion?(false); done(false) }])
        window.presentError(question) { _ in }
    }

    /// Before the move: which names change and why (the destination's rules, found by trying them).
    private static func renamesBeforeMove(_ renames: [MoveRename]) -> String {
        var reasons: [String] = []
        if renames.contains(where: { $0.reason == .caseOnly }) {
            reasons.append(tr("It does not tell capital letters from small ones, so names that differ only in case get a number."))
        }
        if renames.contains(where: { $0.reason == .notAllowed }) {
            reasons.append(tr("It does not allow some characters in names (such as : ? * or a dot at the end); they become “_”."))
        }
        if renames.contains(where: { $0.reason == .tooLong }) {
            reasons.append(tr("Some names are longer than it allows; they are shortened."))
        }
        if renames.contains(where: { $0.reason == .nameTaken }) {
            reasons.append(tr("Names it already has get a number; both are kept."))
        }
        // TRANSLATORS: follows the sentence naming the folder the notes move to; %1$d is a count, %2$s a list such as “a:b.md → a_b.md, todo.md → todo (2).md”.
        return trn("%1$d name changes on the way: %2$s.", "%1$d names change on the way: %2$s.", renames.count, renames.count, MoveRename.list(renames))
            + " " + reasons.joined(separator: " ")
    }

    /// After the move: which names changed, said in the window.
    private static func renamesAfterMove(_ pairs: [(from: String, to: String)], folder: String) -> String {
        // TRANSLATORS: %1$d is a count, %2$s the folder the notes are in now, %3$s a list such as “a:b.md → a_b.md, Todo.md → Todo (2).md”.
        trn("Your notes are in “%2$s” now. %1$d name changed on the way, because that folder cannot hold it or already had it: %3$s.",
            "Your notes are in “%2$s” now. %1$d names changed on the way, because that folder cannot hold them or already had them: %3$s.",
            pairs.count, pairs.count, folder, MoveRename.list(pairs))
    }

    /// Holds every open note (saved without blocking; typing waits, the lights say "Moving…"),
    /// then moves on the library's writer queue, so no other job writes a note meanwhile.
    private func run(_ plan: LibraryMover.Preflight, mover: LibraryMover, storage: Preferences.Storage, window: MainWindow,
                     completion: (@MainActor (Bool) -> Void)?) {
        let documents = SharedDocuments.shared
        documents.holdForMove { [weak self] held in
            switch held {
            case .failure(let failure):
                let error = OperationError(.save, note: failure.document.displayName, underlying: failure.error)
                let responder: Responder = documents.editors(of: failure.document).first?.editor ?? window
                responder.presentError(error) { _ in }
                completion?(false)
            case .success(let held):
                guard let self else { return documents.releaseAfterMove(held, from: mover.source, to: nil) }
                self.move(plan, mover: mover, holding: held, storage: storage, window: window, completion: completion)
            }
        }
    }

    private func move(_ plan: LibraryMover.Preflight, mover: LibraryMover, holding held: [NoteDocument], storage: Preferences.Storage,
                      window: MainWindow, completion: (@MainActor (Bool) -> Void)?) {
        MoveReport.held(held.flatMap(SharedDocuments.shared.editors(of:)))
        application?.presenter.isHeld = true
        window.controller.live.stopWatching()  // the notes leaving are not "deleted by another program"
        // TRANSLATORS: %s is the folder the notes move to.
        let message = trn("Moving %d note to “%s”…", "Moving %d notes to “%s”…", plan.noteCount, plan.noteCount, mover.destination.path)
        let dialog = MoveProgressDialog(parent: window.window, message: message)
        let cancelled = CancelFlag()
        dialog.onCancel = { cancelled.set() }
        dialog.show()
        let live = window.controller.live
        let cacheFolder = live.indexFolder
        window.controller.io.async {
            // The index goes with the notes: copied beside the move, it becomes the
            // destination's once they are there (else that folder is indexed from the start).
            let carry = cacheFolder.flatMap { IndexCarryOver(source: mover.source, destination: mover.destination, cacheFolder: $0) }
            let result = Result {
                try mover.run(plan, progress: { done, total in
                    DispatchQueue.main.async { dialog.update(done: done, total: total) }
                }, isCancelled: { cancelled.isSet })
            }
            if case .failure = result { carry?.discard() }
            DispatchQueue.main.async { [weak self] in
                dialog.close()
                guard let self else { return }
                switch result {
                case .success(let movedNotes):
                    var moved = self.preferences
                    moved.storage = storage
                    if storage == .synced { moved.syncedFolder = mover.destination.path }
                    self.save(moved)  // flipped only now: every note is across
                    // An open note may have arrived under another name.
                    let renamed = Dictionary(plan.journal.items.filter { $0.source != $0.target }.map { ($0.source, $0.target) },
                                             uniquingKeysWith: { first, _ in first })
                    SharedDocuments.shared.releaseAfterMove(held, from: mover.source, to: mover.destination, renamed: renamed)
                    // Carried over where the destination's index opens, just before it does:
                    // the dialog closes now, and the list follows as soon as the index is there.
                    if let carry { live.beforeNextSwitch { carry.finish(movedNotes) } }
                    window.controller.switchLibrary(to: mover.destination, createsFolder: storage == .local) {
                        live.removeIndex(ofFolderLeft: mover.source)  // its notes are all across
                    }
                    // Information, not a failure: said in the window.
                    let pairs = plan.journal.renamedNames
                    if !pairs.isEmpty { window.notice.show(Self.renamesAfterMove(pairs, folder: mover.destination.path)) }
                    self.application?.presenter.isHeld = false
                    self.onLibraryMoved?()
                    completion?(true)
                case .failure(let error):
                    SharedDocuments.shared.releaseAfterMove(held, from: mover.source, to: nil)
                    window.controller.start()  // everything is back: list and watch it again
                    self.application?.presenter.isHeld = false
                    if case MoveError.cancelled = error { completion?(false); return }
                    self.report(error, retry: { self.move(to: storage, folder: mover.destination, confirm: false, completion: completion) },
                                completion: completion)
                }
            }
        }
    }

    private func report(_ error: Error, retry: @escaping @MainActor () -> Void, completion: (@MainActor (Bool) -> Void)?) {
        let failure = RecoverableFailure(
            failureReason: tr("Your notes could not be moved"),
            // TRANSLATORS: %s is the reason (one or more sentences).
            recoverySuggestion: tr("%s Every note is still where it was.", String(describing: error)),
            actions: [RecoveryAction(tr("Try Again"), role: .default) { done in retry(); done(false) },
                      RecoveryAction(tr("Show in Files")) { [weak self] done in
                          FileBrowser.showFolder(PathBytes.bytes(self?.libraryFolder.path ?? "/"), parent: self?.window?.window)
                          done(false)
                      },
                      RecoveryAction(tr("Keep Notes Where They Are"), role: .cancel) { done in completion?(false); done(false) }])
        window?.presentError(failure) { _ in }
    }

    /// Points a synced library at a folder located again (the same notes, found elsewhere).
    func locateSyncedFolder(_ folder: URL) {
        var located = preferences
        located.syncedFolder = folder.path
        save(located)
        window?.controller.switchLibrary(to: folder, createsFolder: false)
    }

    /// Changes some choices and keeps the others (the style is chosen in the same file).
    func updatePreferences(_ change: (inout Preferences) -> Void) {
        var changed = preferences
        change(&changed)
        save(changed)
    }

    private func save(_ new: Preferences) {
        preferences = new
        do { try store.save(new) } catch {
            window?.presentError(RecoverableFailure(
                failureReason: tr("Your choice could not be remembered"),
                // TRANSLATORS: %1$s is the preferences file, %2$s the reason it could not be written.
                recoverySuggestion: tr("Notula could not write “%1$s”: %2$s. It uses your choice until it quits.", store.url.path, String(describing: error)),
                actions: [.cancel(tr("OK"))])) { _ in }
        }
    }
}

/// Set from the main thread (Cancel), read by the mover's thread.
nonisolated private final class CancelFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
