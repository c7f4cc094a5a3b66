import Dispatch
import Foundation
import Gtk
import NotesCore
import Synchronization

/// Actions on several selected notes at once (issue #47): Move to Notebook…, Add Tag… and
/// Remove Tag…, Pin and Unpin, Move to Trash. The files change on the library's `io` queue
/// through `NoteBatch` (each note by the path one note's action takes); a long one shows its
/// progress with Cancel after half a second; the watcher's news of the notes waits, so the
/// index reads them and the list changes once (`LiveLibrary.holdChanges`). Done, a toast
/// offers Undo (Ctrl+Z too while it shows), which takes the whole action back as one step;
/// the notes it could not do are named with why, with Try Again for them.
final class BulkController {
    private unowned let notes: NotesController
    private var progress: MoveProgressDialog?
    private var nameDialog: NameDialog?
    private var chooser: NotebookChooser?
    /// How long an action runs before its progress shows.
    static let progressDelay: TimeInterval = 0.5
    /// Where an action's files change (nice 10).
    nonisolated private static let belowTheWindow = LowPriorityQueue(label: "notula.bulk")

    init(notes: NotesController) {
        self.notes = notes
    }

    private var list: NotesListView { notes.list }

    // MARK: Asking

    /// Move to Notebook… for `ids`: the notebook chooser, then the move.
    func askWhereToMove(_ ids: [String]) {
        let notebooks = Set(ids.map { ($0 as NSString).deletingLastPathComponent })
        // TRANSLATORS: the title of the dialog that picks a notebook for several notes
        let chooser = NotebookChooser(title: trn("Move %d Note", "Move %d Notes", ids.count, ids.count),
                                      notebooks: notes.notebooks.list.notebooks, current: notebooks.count == 1 ? notebooks.first : nil,
                                      parent: notes.window) { [weak self] notebook in
            self?.chooser = nil
            if let notebook { self?.run(.move(toNotebook: notebook), ids: ids) }
        }
        self.chooser = chooser
        chooser.present()
    }

    /// Add Tag… or Remove Tag… for `ids`: the tag's name, then the edits.
    func askForTag(adding: Bool, _ ids: [String]) {
        let title = adding
            // TRANSLATORS: dialog titles; %d is how many notes
            ? trn("Add a Tag to %d Note", "Add a Tag to %d Notes", ids.count, ids.count)
            : trn("Remove a Tag from %d Note", "Remove a Tag from %d Notes", ids.count, ids.count)
        // TRANSLATORS: the prompt of Add Tag… and Remove Tag…
        let dialog = NameDialog(title: title, prompt: tr("Tag (for example #trip):"), confirmLabel: adding ? tr("Add Tag") : tr("Remove Tag"),
                                parent: notes.window) { [weak self] answer in
            guard let self else { return }
            self.nameDialog = nil
            guard let answer else { return }
            guard let tag = TagEdit.name(from: answer) else {
                return self.list.presentError(RecoverableFailure(
                    // TRANSLATORS: %s is what the user typed as a tag
                    failureReason: tr("“%s” is not a tag", answer),
                    recoverySuggestion: tr("A tag is one word of letters, digits, “_”, “-” or “/”, with at least one letter, such as #trip or #work/meetings."),
                    actions: [.cancel(tr("OK"))])) { _ in }
            }
            self.run(adding ? .addTag(tag) : .removeTag(tag), ids: ids)
        }
        nameDialog = dialog
        dialog.present()
    }

    // MARK: Pins

    /// Pins or unpins every note of `ids` at once (the pin file written once); Undo puts the
    /// pins back as they were.
    func setPinned(_ pinned: Bool, _ ids: [String]) {
        let before = list.arrangement.pinned
        notes.changePins { if pinned { $0.formUnion(ids) } else { $0.subtract(ids) } }
        let message = pinned
            // TRANSLATORS: a toast; %d is how many notes
            ? trn("%d note pinned", "%d notes pinned", ids.count, ids.count)
            : trn("%d note unpinned", "%d notes unpinned", ids.count, ids.count)
        notes.toast.show(message, actionLabel: tr("Undo"), action: { [weak self] in
            self?.notes.changePins { $0 = before }
        }, onExpire: {}, takesControlZ: true)
    }

    // MARK: Running

    /// Does `action` to the notes of `ids` the list shows. The open note among them is saved
    /// and closed first (its newest words go with it; the editor shows the selection anyway).
    func run(_ action: NoteBatch.Action, ids: [String]) {
        // The notes as listed now: those the action is for (found on the writer queue, not
        // here: 100,000 lookups), and their titles for a report (no copy unless the list changes).
        let table = list.notes
        guard ids.contains(where: table.contains) else { return }
        let titles: Titles = { id in table[id]?.title }
        let affectsOpen = notes.openID.map(ids.contains) ?? false
        notes.leaveOpenNote(if: affectsOpen, for: Self.operation(of: action), note: nil, retry: { [weak self] in self?.run(action, ids: ids) }) { [weak self] in
            guard let self else { return }
            self.notes.toast.expireNow()  // an earlier action's Undo is over
            self.work(total: ids.count, title: Self.progressTitle(of: action)) { batch, shouldGoOn in
                batch.apply(batch.plan(action, ids: ids.filter(table.contains)), shouldGoOn: shouldGoOn)
            } done: { [weak self] outcome, moves, startedAt in
                BulkReport.finished(action, outcome, startedAt: startedAt)
                self?.finished(action, outcome, moves: moves, titles: titles, total: ids.count)
            }
        }
    }

    /// Runs `body` on the writer queue with the watcher's news held, showing progress after
    /// `progressDelay` with Cancel; `done` on the main thread once the index has read the notes.
    private func work(total: Int, title: String,
                      _ body: @escaping @Sendable (NoteBatch, _ shouldGoOn: (Int) -> Bool) -> NoteBatch.Outcome,
                      done: @escaping @MainActor (NoteBatch.Outcome, _ moves: [String: String], _ startedAt: UInt64) -> Void) {
        let startedAt = DispatchTime.now().uptimeNanoseconds
        let batch = NoteBatch(library: notes.library.folder, history: notes.openNote.history)
        let cancelled = Atomic(false)
        let finished = Atomic(false)
        let reported = Atomic(UInt64(0))
        let selection = list.selectedNotes
        notes.live.holdChanges()
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.progressDelay) { [weak self] in
            guard let self, !finished.load(ordering: .acquiring), let window = self.notes.window else { return }
            let dialog = MoveProgressDialog(parent: window, message: title, title: title, progressLabel: title)
            dialog.onCancel = { cancelled.store(true, ordering: .relaxed) }
            dialog.show()
            self.progress = dialog
        }
        // On the writer queue, so the notes' own saves wait for it; on a thread below the
        // window's (`belowTheWindow`), so that on two cores 100,000 files do not take the CPU
        // from the main thread and the display server.
        notes.io.async {
            Self.belowTheWindow.sync { [weak self] in
                BulkReport.filesStarted(startedAt: startedAt)
                let outcome = body(batch) { count in
                    // At most about twenty updates a second reach the window.
                    let now = DispatchTime.now().uptimeNanoseconds
                    if now - reported.load(ordering: .relaxed) > 50_000_000 || count == total {
                        reported.store(now, ordering: .relaxed)
                        DispatchQueue.main.async { [weak self] in self?.progress?.update(done: count, total: total) }
                    }
                    return !cancelled.load(ordering: .relaxed)
                }
                finished.store(true, ordering: .releasing)
                BulkReport.filesDone(startedAt: startedAt)
                // Made here, not on the main thread (200,000 ids).
                let changed = outcome.changedIDs, moves = outcome.moves, followed = selection.renaming(moves)
                DispatchQueue.main.async { [weak self] in
                    guard let self else { return }
                    self.progress?.close()
                    self.progress = nil
                    // The selection follows the notes that moved before the list hears of it (else
                    // their old ids, gone, would leave it).
                    if self.list.selectedNotes == selection {
                        self.list.selectedNotes = followed
                    } else {
                        for (from, to) in moves where self.list.selectedNotes.contains(from) { self.list.selectedNotes.rename(from, to: to) }
                    }
                    self.notes.live.releaseChanges(with: changed, moved: moves) { [weak self] changes in
                        self?.list.whenSettled {
                            done(outcome, moves, startedAt)
                            OffMainRelease.later((changed, moves, changes))
                        }
                    }
                }
            }
        }
    }

    /// A note's title as listed when the action began (nil: not listed then).
    typealias Titles = (String) -> String?

    private func finished(_ action: NoteBatch.Action, _ outcome: NoteBatch.Outcome, moves: [String: String], titles: @escaping Titles, total: Int) {
        follow(outcome, moves: moves)
        let count = outcome.done.count
        if count > 0 {
            var message = Self.doneMessage(action, count: count)
            // TRANSLATORS: added to the toast of an action on many notes that was cancelled; %1$d done of %2$d
            if outcome.cancelled { message += " " + tr("(stopped after %1$d of %2$d)", count + outcome.failures.count + outcome.unchanged.count, total) }
            notes.toast.show(message, actionLabel: tr("Undo"), action: { [weak self] in self?.undo(outcome, titles: titles) },
                             onExpire: {}, seconds: 8, takesControlZ: true)
        } else if !outcome.unchanged.isEmpty, outcome.failures.isEmpty {
            // TRANSLATORS: a toast: the action on many notes had nothing to do
            notes.toast.show(tr("Nothing to change: the notes are that way already"))
        }
        guard !outcome.failures.isEmpty else { return }
        let failed = outcome.failures.map(\.id)
        list.presentError(RecoverableFailure(failureReason: Self.failureReason(action, count: failed.count),
                                             recoverySuggestion: Self.lines(outcome.failures, titles: titles),
                                             actions: [.cancel(tr("OK")), RecoveryAction(tr("Try Again")) { [weak self] done in
                                                 self?.run(action, ids: failed)
                                                 done(false)
                                             }])) { _ in }
    }

    /// Undo: every note back where and as it was, as one step.
    private func undo(_ outcome: NoteBatch.Outcome, titles: @escaping Titles) {
        work(total: outcome.done.count, title: tr("Undoing")) { batch, shouldGoOn in
            batch.undo(outcome, shouldGoOn: shouldGoOn)
        } done: { [weak self] undone, moves, startedAt in
            guard let self else { return }
            self.follow(undone, moves: moves)
            BulkReport.undone(undone, startedAt: startedAt)
            guard !undone.failures.isEmpty else { return }
            let back = Dictionary(outcome.moves.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            let named: Titles = { id in titles(back[id] ?? id) }
            self.list.presentError(RecoverableFailure(
                // TRANSLATORS: %d notes could not be put back by Undo
                failureReason: trn("%d note could not be put back", "%d notes could not be put back", undone.failures.count, undone.failures.count),
                recoverySuggestion: Self.lines(undone.failures, titles: named), actions: [.cancel(tr("OK"))])) { _ in }
        }
    }

    /// The pins follow the notes that moved (`moves`); trashed notes leave them. (The selection
    /// followed before the list changed, and the list let go of the notes it no longer has.)
    private func follow(_ outcome: NoteBatch.Outcome, moves: [String: String]) {
        var trashed = Set<String>()
        for case .trashed(let from, _) in outcome.done { trashed.insert(from) }
        if !moves.isEmpty || !trashed.isEmpty {
            if list.arrangement.pinned.contains(where: { moves[$0] != nil || trashed.contains($0) }) {
                notes.changePins { pins in
                    for (from, to) in moves where pins.remove(from) != nil { pins.insert(to) }
                    pins.subtract(trashed)
                }
            }
            list.markSelectedRows()
            if list.selectedNotes.isMultiple, let lead = list.selectedNotes.lead { list.select(lead, notify: false, scroll: false) }
        }
        notes.search.findAgainIfNeeded()
        if list.selectedID == nil, !list.selectedNotes.isMultiple, let first = list.orderedIDs.first { list.select(first, notify: true) }
    }

    // MARK: Words

    private static func operation(of action: NoteBatch.Action) -> OperationError.Action {
        switch action {
        case .move: return .moveNote
        case .trash: return .delete
        case .addTag, .removeTag: return .save
        }
    }

    private static func progressTitle(of action: NoteBatch.Action) -> String {
        switch action {
        // TRANSLATORS: the title of the progress of an action on many notes
        case .move: return tr("Moving Notes")
        case .addTag: return tr("Adding a Tag")
        case .removeTag: return tr("Removing a Tag")
        case .trash: return tr("Moving Notes to the Trash")
        }
    }

    static func doneMessage(_ action: NoteBatch.Action, count: Int) -> String {
        switch action {
        case .move(let notebook) where notebook.isEmpty:
            // TRANSLATORS: a toast; %d is how many notes, moved out of every notebook
            return trn("%d note moved to All Notes", "%d notes moved to All Notes", count, count)
        case .move(let notebook):
            // TRANSLATORS: a toast; %1$d is how many notes, %2$s the notebook they went to
            return trn("%1$d note moved to “%2$s”", "%1$d notes moved to “%2$s”", count, count, PathBytes.displayName(notebook))
        case .addTag(let tag):
            // TRANSLATORS: a toast; %1$s is the tag, %2$d how many notes got it
            return trn("#%1$s added to %2$d note", "#%1$s added to %2$d notes", count, tag, count)
        case .removeTag(let tag):
            // TRANSLATORS: a toast; %1$s is the tag, %2$d how many notes it was removed from
            return trn("#%1$s removed from %2$d note", "#%1$s removed from %2$d notes", count, tag, count)
        case .trash:
            // TRANSLATORS: a toast; %d is how many notes
            return trn("%d note moved to the Trash", "%d notes moved to the Trash", count, count)
        }
    }

    private static func failureReason(_ action: NoteBatch.Action, count: Int) -> String {
        switch action {
        // TRANSLATORS: the title of the report of an action on many notes; %d is how many were left out
        case .move: return trn("%d note could not be moved", "%d notes could not be moved", count, count)
        case .addTag: return trn("%d note could not be tagged", "%d notes could not be tagged", count, count)
        case .removeTag: return trn("The tag could not be removed from %d note", "The tag could not be removed from %d notes", count, count)
        case .trash: return trn("%d note could not be moved to the Trash", "%d notes could not be moved to the Trash", count, count)
        }
    }

    /// "“Title”: why", one line a note, at most twelve, then how many more.
    static func lines(_ failures: [NoteBatch.Failure], titles: Titles) -> String {
        var lines = failures.prefix(12).map { failure in
            // TRANSLATORS: one line of the report of an action on many notes: %1$s the note's title, %2$s why it was left out
            tr("“%1$s”: %2$s", titles(failure.id) ?? PathBytes.display(failure.id), failure.reason)
        }
        if failures.count > 12 {
            // TRANSLATORS: the last line of a long report; %d is how many notes more
            lines.append(trn("and %d more", "and %d more", failures.count - 12, failures.count - 12))
        }
        return lines.joined(separator: "\n")
    }
}
