import Dispatch
import Foundation
import NotesCore

/// The window's side of the live library (`LiveLibrary`, NotesCore): its events become the
/// notes list, the notebooks, the banner and notices; rows follow what the index found
/// changed (the open note's row named by the editor's text, which is ahead of its file);
/// names that are not UTF-8 are offered to be fixed.
final class LibraryPresenter {
    private unowned let notes: NotesController
    /// The library folder cannot be reached: the window shows its banner instead of "no notes".
    var onLibraryUnavailable: ((Error) -> Void)?
    /// The library was listed (the banner goes).
    var onLibraryAvailable: (() -> Void)?
    /// A notice in the window (a sentence, and a button when there is something to do).
    var notice: ((String, (label: String, run: () -> Void)?) -> Void)?
    /// A start or a switch is under way: the newest note opens once there is one.
    var isStarting = false
    /// The list was filled once (later listings replace it keeping the selection).
    private var hasListed = false
    /// The names that are not UTF-8 the window last offered to fix.
    private var namesOfferedToFix: Set<String> = []
    private var refreshingTimes = false
    /// The index equals the folder (its last listing was reconciled): a lookup by title now
    /// sees every note there is, also those another program added since the last run.
    private(set) var isReconciled = false
    private var reconciledWaiters: [@MainActor () -> Void] = []

    init(notes: NotesController) {
        self.notes = notes
    }

    private var list: NotesListView { notes.list }

    func started(_ result: Result<[String], Error>, then: (@MainActor () -> Void)?) {
        list.whenSettled { [weak self] in self?.startedAndListed(result, then: then) }
    }

    private func startedAndListed(_ result: Result<[String], Error>, then: (@MainActor () -> Void)?) {
        isStarting = false
        guard case .success = result else { return then?() ?? () }  // said by `.unavailable`
        SearchReport.indexReady(notes: list.count)
        notes.search.prepare()
        SearchReport.runBenchQuery(type: { [weak self] typed in self?.notes.search.entry.append(typed) },
                                   clear: { [weak self] in self?.notes.search.entry.text = "" })
        SwitchReport.runIfRequested(ids: list.orderedIDs) { [weak self] id, shown in
            self?.notes.list.select(id, notify: false)
            self?.notes.open(id, then: shown)
        }
        notes.trash.purgeOld()
        scheduleTimeRefresh()
        then?()
    }

    /// What the live library reports, once the list shows what it reported before (a large
    /// batch is merged on another thread: `NotesListView+Batches`).
    func libraryDid(_ event: LiveLibrary.Event) {
        list.whenSettled { [weak self] in self?.handle(event) }
    }

    private func handle(_ event: LiveLibrary.Event) {
        switch event {
        case .listed(let summaries):
            isReconciled = false
            notes.search.index = notes.live.index
            onLibraryAvailable?()
            showEveryNote(summaries)
            notes.links.mayHaveChanged()
        case .changed(let changes):
            applyIndexChanges(changes)
            list.whenSettled { [weak self] in
                guard let self else { return }
                self.notes.links.mayHaveChanged()
                // A first start fills the list as it goes: the newest note opens once there is one.
                if self.isStarting { self.openNewestIfNothingIsOpen() }
            }
        case .notebooks(let notebooks):
            notes.notebooks.list.show(notebooks)
        case .reconciled:
            notes.search.findAgainIfNeeded()
            offerToFixNames()
            notes.links.mayHaveChanged()
            isReconciled = true
            let waiting = reconciledWaiters
            reconciledWaiters = []
            for body in waiting { body() }
        case .indexing(let progress):
            notes.search.showIndexing(indexed: progress.indexed, of: progress.total)
            notes.links.mayHaveChanged(after: 2000)
        case .indexed(let progress):
            notes.search.showIndexing(indexed: progress.total, of: progress.total)
            SearchReport.indexed(notes: progress.total)
            notes.links.mayHaveChanged()
            BulkReport.runBenchMove { [notes] notebook in
                // As a user's Ctrl+A and Move to Notebook… come: one after the other, not in one frame.
                notes.list.selectEveryShownNote {
                    notes.bulk.run(.move(toNotebook: notebook), ids: notes.list.selectedIDs)
                }
            }
        case .unavailable(let error):
            unavailable(error)
        case .degraded(let message):
            notes.toast.show(message)
        }
    }

    /// Runs `body` once the index equals the folder (now, if it does).
    func whenReconciled(_ body: @escaping @MainActor () -> Void) {
        if isReconciled { return body() }
        reconciledWaiters.append(body)
    }

    /// Every note there is: at the start (from the index), after another folder was listed,
    /// or after the index started over.
    private func showEveryNote(_ summaries: [NoteSummary]) {
        if !hasListed {
            hasListed = true
            list.show(summaries)
            StartupReport.listShown(count: summaries.count)
            StartupReport.listed(summaries.lazy.map(\.id))
            notes.loadPins()
            notes.session.restoreNotebook()
            if !notes.session.restoreOpenNote() { openNewestIfNothingIsOpen() }
            return
        }
        let present = Set(summaries.map(\.id))
        applyIndexChanges(LibraryIndex.Changes(upserted: summaries, removed: list.allIDs.filter { !present.contains($0) }))
        notes.loadPins()
        list.whenSettled { [weak self] in
            if let self, self.isStarting { self.openNewestIfNothingIsOpen() }
        }
    }

    /// The newest note opens by itself, unless it may be too large to lay out at once or
    /// cannot be read: then the newest that can.
    func openNewestIfNothingIsOpen() {
        guard notes.document == nil, !notes.openNote.isOpening, list.selectedID == nil else { return }
        // The chosen notebook's (and those inside it): the list may not be narrowed to it yet.
        let inNotebook = notes.notebooks.selected.map { notebook in { (id: String) in id.hasPrefix(notebook + "/") } } ?? { _ in true }
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
        if !notes.live.createsFolder, onLibraryUnavailable != nil {
            // A synced folder that is not there: say so in the banner, list nothing.
            list.showUnavailable()
            onLibraryUnavailable?(error)
            return
        }
        list.presentError(OperationError(.listLibrary, note: nil, underlying: error)) { [weak self] recovered in
            if recovered { self?.notes.start() }
        }
    }

    /// Shows what the index found changed: rows added, updated or removed.
    func applyIndexChanges(_ changes: LibraryIndex.Changes) {
        // Filtered only when there is something to leave out: 100,000 summaries copied cost 30 ms.
        var upserted = changes.upserted
        if let pending = notes.trash.pendingDeletion?.id, upserted.contains(where: { $0.id == pending }) {
            upserted.removeAll { $0.id == pending }
        }
        if let openID = notes.openID, let position = upserted.firstIndex(where: { $0.id == openID }),
           let document = notes.openNote.document, !document.isReadOnly {
            // The editor is ahead of the file (typing not saved yet): its text names the row.
            let leading = notes.openNote.editor.leadingText
            upserted[position].title = NoteText.title(of: leading)
            upserted[position].preview = NoteText.preview(of: leading)
        }
        // The open note's document says itself that its file went away; its row goes when
        // the note is left (`noteLeftWithoutItsFile`).
        var removed = changes.removed
        if let openID = notes.openID, removed.contains(openID) { removed.removeAll { $0 == openID } }
        guard !upserted.isEmpty || !removed.isEmpty else { return }
        list.apply(upserted: upserted, removed: removed)
        let listed = StartupReport.awaitsListing ? upserted.map(\.id) : []
        list.whenSettled { [weak self] in
            guard let self else { return }
            StartupReport.listShown(count: self.list.allIDs.count)
            StartupReport.listed(listed)
            self.notes.search.findAgainIfNeeded()
        }
    }

    /// These notes changed on disk (or may have): the index reads what changed of them, then
    /// the list shows it.
    func refreshIndex(_ ids: [String], then: (@MainActor (LibraryIndex.Changes) -> Void)? = nil) {
        guard let then else { return notes.live.refresh(ids) }
        notes.live.refresh(ids) { [weak self] changes in self?.list.whenSettled { then(changes) } }
    }

    /// The note just left had lost its file to another program: its row goes (it would open
    /// nothing), and the window offers its text, kept in a recovery draft, back.
    func noteLeftWithoutItsFile(_ url: URL, title: String) {
        guard let id = notes.id(of: url) else { return }
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
        let drafts = notes.openNote.drafts, library = notes.library
        notes.io.async {
            let saved = drafts.writeBack(of: url, into: library)
            DispatchQueue.main.async { [weak self] in self?.listSavedAgain(saved) }
        }
    }

    /// A note written again from its kept text: listed, selected and opened.
    private func listSavedAgain(_ url: URL?) {
        guard let url, let id = notes.id(of: url) else { return }
        refreshIndex([id]) { [weak self] _ in self?.list.select(id, notify: true) }
    }

    /// Names in the library that are not UTF-8 are listed with "�"; the window offers, once
    /// per set of such names, to rename them to what their bytes most likely meant.
    private func offerToFixNames() {
        // Looked for away from the window: 100,000 paths to read (10 ms and more).
        let (ids, notebooks) = (list.allIDs, notes.notebooks.list.notebooks)
        DispatchQueue.global(qos: .utility).async {
            let names = NameRepair.needed(notes: ids, notebooks: notebooks)
            DispatchQueue.main.async { [weak self] in self?.offerToFix(names) }
        }
    }

    private func offerToFix(_ names: [String]) {
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
        let openID = notes.openID
        let isAffected = openID.map { id in names.contains { id == $0 || id.hasPrefix($0 + "/") } } ?? false
        let repair = NameRepair(library: notes.library.folder, history: notes.openNote.history)
        notes.leaveOpenNote(if: isAffected, for: .fixNames, note: openID.map(PathBytes.displayName)) { [weak self] in
            self?.rename(names, with: repair, reopening: isAffected ? openID : nil)
        }
    }

    private func rename(_ names: [String], with repair: NameRepair, reopening openID: String?) {
        notes.io.async {
            let result = Result { try repair.repair(names) }
            DispatchQueue.main.async { [weak self] in self?.namesFixed(result, reopening: openID) }
        }
    }

    private func namesFixed(_ result: Result<[NameRepair.Renamed], Error>, reopening openID: String?) {
        notes.live.rescan { [weak self] in
            guard let self, var id = openID, case .success(let renames) = result else { return }
            for rename in renames where id == rename.from || id.hasPrefix(rename.from + "/") { id = rename.to + id.dropFirst(rename.from.count) }
            self.list.select(id, notify: true)
        }
        notes.loadPins()
        if case .failure(let error) = result {
            let failed = (error as? StorageError).map { PathBytes.displayName($0.path) }
            list.presentError(OperationError(.fixNames, note: failed, underlying: error)) { _ in }
        }
    }

    /// The rows' relative times ("5 minutes ago") move on every 30 s.
    private func scheduleTimeRefresh() {
        guard !refreshingTimes else { return }
        refreshingTimes = true
        refreshTimesLater()
    }

    private func refreshTimesLater() {
        DispatchQueue.main.asyncAfter(deadline: .now() + 30) { [weak self] in
            self?.list.refreshTimes()
            self?.refreshTimesLater()
        }
    }
}
