import Dispatch
import Foundation
import NotesCore

/// The window's side of the live library (`LiveLibrary`, NotesCore): its events become the
/// list, the notebooks, the banner and notices; its transitions are asked for here, by name.
extension NotesController {
    /// Shows the library at once from its index, then brings the index in line with the
    /// folder in the background (reading only new and changed files; a first run fills the
    /// list as it goes); `then` once the list is complete (or the folder said unavailable).
    func start(then: (@MainActor () -> Void)? = nil) {
        isStarting = true
        live.open { [weak self] result in self?.started(result, then: then) }
    }

    /// Shows another library folder (after a move, or a folder located again). What is
    /// listed stays until the new folder's listing replaces it.
    func switchLibrary(to folder: URL, createsFolder: Bool, then: (@MainActor () -> Void)? = nil) {
        isStarting = true
        live.switchTo(folder, createsFolder: createsFolder) { [weak self] result in self?.started(result, then: then) }
    }

    private func started(_ result: Result<[String], Error>, then: (@MainActor () -> Void)?) {
        isStarting = false
        guard case .success = result else { return then?() ?? () }  // said by `.unavailable`
        SearchReport.indexReady(notes: list.count)
        search.prepare()
        SearchReport.runBenchQuery(type: { [weak self] typed in self?.search.entry.append(typed) },
                                   clear: { [weak self] in self?.search.entry.text = "" })
        SwitchReport.runIfRequested(ids: list.orderedIDs) { [weak self] id, shown in
            self?.list.select(id, notify: false)
            self?.open(id, then: shown)
        }
        purgeOldTrash()
        scheduleTimeRefresh()
        then?()
    }

    /// What the live library reports.
    func libraryDid(_ event: LiveLibrary.Event) {
        switch event {
        case .listed(let notes):
            search.index = live.index
            onLibraryAvailable?()
            showEveryNote(notes)
            linksMayHaveChanged()
        case .changed(let changes):
            applyIndexChanges(changes)
            linksMayHaveChanged()
            // A first start fills the list as it goes: the newest note opens once there is one.
            if isStarting { openNewestIfNothingIsOpen() }
        case .notebooks(let notebooks):
            notebookList.show(notebooks)
        case .reconciled:
            search.findAgainIfNeeded()
            offerToFixNames()
            linksMayHaveChanged()
        case .indexing(let progress):
            search.showIndexing(indexed: progress.indexed, of: progress.total)
            linksMayHaveChanged(after: 2000)
        case .indexed(let progress):
            search.showIndexing(indexed: progress.total, of: progress.total)
            SearchReport.indexed(notes: progress.total)
            linksMayHaveChanged()
        case .unavailable(let error):
            unavailable(error)
        case .degraded(let message):
            toast.show(message)
        }
    }

    /// Every note there is: at the start (from the index), after another folder was listed,
    /// or after the index started over.
    private func showEveryNote(_ notes: [NoteSummary]) {
        if !hasListed {
            hasListed = true
            list.show(notes)
            StartupReport.listShown(count: notes.count)
            StartupReport.listed(notes.lazy.map(\.id))
            loadPins()
            restoreNotebook()
            if !restoreOpenNote() { openNewestIfNothingIsOpen() }
            return
        }
        let present = Set(notes.map(\.id))
        applyIndexChanges(LibraryIndex.Changes(upserted: notes, removed: list.allIDs.filter { !present.contains($0) }))
        loadPins()
        if isStarting { openNewestIfNothingIsOpen() }
    }

    /// The notebook the last session showed, chosen again before a note opens (when its folder
    /// is still there; the sidebar lists it once the notebooks are read).
    private func restoreNotebook() {
        guard let notebook = restoring?.notebook else { return }
        restoring?.notebook = nil
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: library.folder.appendingPathComponent(notebook).path, isDirectory: &isFolder),
              isFolder.boolValue else { return }
        notebookList.select(notebook)
    }

    /// The note the last session showed opens again, its cursor and scroll position as they
    /// were; false when there was none or it is gone.
    private func restoreOpenNote() -> Bool {
        guard let restore = restoring, let id = restore.note else { return false }
        restoring?.note = nil
        // Asked for something else already (a desktop search result, a file, a new note).
        guard document == nil, !openNote.isOpening else { return true }
        // Only a note of the library (`reveal` checks the id read from disk); at a first start
        // the index may not list it yet.
        guard reveal(id) else { return false }
        openNote.whenShown(library.folder.appendingPathComponent(id)) { [weak self] in
            guard let self else { return }
            let editor = self.openNote.editor
            editor.buffer.cursorOffset = min(restore.cursorOffset, editor.buffer.characterCount)
            // Once laid out: the view can only scroll as far as its lines have heights.
            editor.textView.onNextFramePainted { [weak editor] in editor?.textView.scrollToTop(ofOffset: restore.topOffset) }
            DesktopReport.restored(id, cursor: editor.buffer.cursorOffset)
        }
        return true
    }

    /// The newest note opens by itself, unless it may be too large to lay out at once or
    /// cannot be read: then the newest that can.
    func openNewestIfNothingIsOpen() {
        guard document == nil, !openNote.isOpening, list.selectedID == nil else { return }
        // The chosen notebook's (and those inside it): the list may not be narrowed to it yet.
        let inNotebook = selectedNotebook.map { notebook in { (id: String) in id.hasPrefix(notebook + "/") } } ?? { _ in true }
        var arranged: [NoteSummary] = []
        for id in list.orderedIDs {
            guard arranged.count < 200 else { break }
            if inNotebook(id), let summary = list.summary(id) { arranged.append(summary) }
        }
        if let first = arranged.first(where: { !$0.mightBeLarge && $0.unreadableReason == nil }) {
            list.select(first.id, notify: true)
        }
    }

    /// The folder cannot be listed: a synced one gets the window's banner; otherwise a dialog
    /// with Try Again.
    private func unavailable(_ error: Error) {
        if !live.createsFolder, onLibraryUnavailable != nil {
            // A synced folder that is not there: say so in the banner, list nothing.
            list.showUnavailable()
            onLibraryUnavailable?(error)
            return
        }
        list.presentError(OperationError(.listLibrary, note: nil, underlying: error)) { [weak self] recovered in
            if recovered { self?.start() }
        }
    }

    /// Shows what the index found changed: rows added, updated or removed.
    func applyIndexChanges(_ changes: LibraryIndex.Changes) {
        var upserted = changes.upserted.filter { $0.id != pendingDeletion?.id }
        if let openID, let position = upserted.firstIndex(where: { $0.id == openID }),
           let document = openNote.document, !document.isReadOnly {
            // The editor is ahead of the file (typing not saved yet): its text names the row.
            let leading = openNote.editor.leadingText
            upserted[position].title = NoteText.title(of: leading)
            upserted[position].preview = NoteText.preview(of: leading)
        }
        // The open note's document says itself that its file went away; its row goes when
        // the note is left (`noteLeftWithoutItsFile`).
        let removed = changes.removed.filter { $0 != openID }
        guard !upserted.isEmpty || !removed.isEmpty else { return }
        list.apply(upserted: upserted, removed: removed)
        StartupReport.listShown(count: list.allIDs.count)
        StartupReport.listed(upserted.lazy.map(\.id))
        search.findAgainIfNeeded()
    }

    /// These notes changed on disk (or may have): the index reads what changed of them, then
    /// the list shows it.
    func refreshIndex(_ ids: [String], then: (@MainActor (LibraryIndex.Changes) -> Void)? = nil) {
        live.refresh(ids, then: then)
    }

    /// A note file appeared (Keep Both): index it and list it.
    func add(_ name: String) {
        refreshIndex([name])
    }

    /// The note just left had lost its file to another program: its row goes (it would open
    /// nothing), and the window offers its text, kept in a recovery draft, back.
    func noteLeftWithoutItsFile(_ url: URL, title: String) {
        guard let id = id(of: url) else { return }
        refreshIndex([id]) { [weak self] changes in
            // The watcher's refresh may have taken the row out of the index while the note was
            // open (the list kept it then): this refresh changes nothing, so the row goes here.
            guard let self, self.list.summary(id) != nil,
                  !(changes.everyNote ?? changes.upserted).contains(where: { $0.id == id }) else { return }
            self.applyIndexChanges(LibraryIndex.Changes(removed: [id]))
        }
        // TRANSLATORS: a notice; %s is the title of a note whose file another program deleted while it was open
        notice?(tr("“%s” was deleted by another program. Its text is kept.", title),
                // TRANSLATORS: the notice's button: write the note's file again (it was deleted or moved)
                (tr("Save Again"), { [weak self] in self?.saveAgain(url) }))
    }

    /// Writes a note's kept text back (`RecoveryDrafts.writeBack`) and lists it.
    private func saveAgain(_ url: URL) {
        let drafts = openNote.drafts, library = self.library
        io.async {
            let saved = drafts.writeBack(of: url, into: library)
            DispatchQueue.main.async { [weak self] in self?.listSavedAgain(saved) }
        }
    }

    /// A note written again from its kept text: listed, selected and opened.
    private func listSavedAgain(_ url: URL?) {
        guard let url, let id = id(of: url) else { return }
        refreshIndex([id]) { [weak self] _ in self?.list.select(id, notify: true) }
    }

    /// Names in the library that are not UTF-8 are listed with "�"; the window offers, once
    /// per set of such names, to rename them to what their bytes most likely meant.
    private func offerToFixNames() {
        let names = NameRepair.needed(notes: list.allIDs, notebooks: notebookList.notebooks)
        guard !names.isEmpty, Set(names) != namesOfferedToFix else { return }
        namesOfferedToFix = Set(names)
        // TRANSLATORS: a notice; "�" is the replacement character shown in such names.
        notice?(trn("%d name in your notes folder is not valid text (it shows “�”): other programs and devices may not read it.",
                    "%d names in your notes folder are not valid text (they show “�”): other programs and devices may not read them.", names.count),
                // TRANSLATORS: the notice's button: renames files whose names are not valid text
                (tr("Rename to Fix"), { [weak self] in self?.fixNames(names) }))
    }

    /// Renames `names` (`NameRepair`); the open note, if among them or inside one, is saved
    /// and closed first and opened again under its new name.
    private func fixNames(_ names: [String]) {
        let openID = self.openID
        let isAffected = openID.map { id in names.contains { id == $0 || id.hasPrefix($0 + "/") } } ?? false
        let repair = NameRepair(library: library.folder, history: openNote.history)
        leaveOpenNote(if: isAffected, for: .fixNames, note: openID.map(PathBytes.displayName)) { [weak self] in
            self?.rename(names, with: repair, reopening: isAffected ? openID : nil)
        }
    }

    private func rename(_ names: [String], with repair: NameRepair, reopening openID: String?) {
        io.async {
            let result = Result { try repair.repair(names) }
            DispatchQueue.main.async { [weak self] in self?.namesFixed(result, reopening: openID) }
        }
    }

    private func namesFixed(_ result: Result<[NameRepair.Renamed], Error>, reopening openID: String?) {
        live.rescan { [weak self] in
            guard let self, var id = openID, case .success(let renames) = result else { return }
            for rename in renames where id == rename.from || id.hasPrefix(rename.from + "/") { id = rename.to + id.dropFirst(rename.from.count) }
            self.list.select(id, notify: true)
        }
        loadPins()
        if case .failure(let error) = result {
            let failed = (error as? StorageError).map { PathBytes.displayName($0.path) }
            list.presentError(OperationError(.fixNames, note: failed, underlying: error)) { _ in }
        }
    }
}
