import Dispatch
import Foundation
import Gtk
import NotesCore

/// Notes that point to each other: `[[Title]]` links opened, created or chosen among notes of
/// one title; the backlinks under the open note; the tags in the sidebar filtering the list;
/// completion after `[[` and `#`; and links that follow a retitled note, after asking.
/// Everything is read from the library index (`LinkLookup`, off the main thread), refreshed a
/// moment after the library changes — also by other programs.
final class LinksController {
    private unowned let notes: NotesController
    let lookup = LinkLookup()
    let backlinks = BacklinksView()
    let tagList = TagList()
    private(set) var tagCounts: [LibraryIndex.TagCount] = []
    /// The open note and the title it had when opened or last asked about (a retitling offers to update links).
    private var linkedTitle: (id: String, title: String)?
    private var refreshDue: (work: DispatchWorkItem, due: DispatchTime)?
    /// The question about links showing (Create Note, Update links), if any.
    private(set) var question: MessageDialog?
    /// Which of several notes of one title a `[[link]]` opens (the menu's choice).
    private let chooseNoteAction = SimpleAction(name: "open-note", choice: "")
    /// The notes the last such menu offered (tests read it back).
    private(set) var offeredNotes: [String] = []
    /// The `#heading` of the link whose notes are offered.
    private var offeredHeading: String?

    init(notes: NotesController) {
        self.notes = notes
        lookup.index = { [weak notes] in notes?.live.index }
        notes.openNote.pane.append(backlinks.root)
        backlinks.onOpen = { [weak notes] id in notes?.reveal(id) }
        tagList.onSelect = { [weak self] key in self?.filter(byTag: key) }
        chooseNoteAction.onChangeState { [weak self] action, id in
            action.choice = ""
            if !id.isEmpty { self?.notes.reveal(id, atHeading: self?.offeredHeading) }
        }
        notes.openNote.editor.textView.addActions([chooseNoteAction], prefix: "links")
        let editor = notes.openNote.editor
        editor.noteLinks.onOpenTitle = { [weak self] title, heading, x, y in self?.openTitle(title, heading: heading, x: x, y: y) }
        editor.noteLinks.existingTitles = { [weak self] keys, answer in
            self?.lookup.ask("existing", { $0.existingTitles(keys) }, answer: answer)
        }
        editor.completion.suggestTitles = { [weak self] typed, answer in
            self?.lookup.ask("titles", { $0.titles(matching: typed) }) { found in
                LinksReport.completion(found.count)
                answer(found.map(\.title))
            }
        }
        editor.completion.suggestTags = { [weak self] typed, answer in
            let key = TitleKey.of(typed)
            answer(Array((self?.tagCounts ?? []).filter { $0.key.hasPrefix(key) }.map(\.name).prefix(8)))
        }
        // Leaving the title line (or the note) after retitling it offers to update the links.
        editor.buffer.onCursorMoved { [weak self] buffer in
            guard let self, buffer.line(atOffset: buffer.cursorOffset) > 0 else { return }
            self.offerToUpdateLinksIfRetitled()
        }
    }

    /// The library changed (rows, texts, another program's edit): backlinks, tags and the
    /// editor's missing links are read again after `milliseconds` — once for a burst of
    /// changes (a refresh already due as soon or sooner takes this one in; the tag counts
    /// cost 50 ms at 100,000 notes, so indexing's steps ask with a longer wait).
    func mayHaveChanged(after milliseconds: Int = 250) {
        let due = DispatchTime.now() + .milliseconds(milliseconds)
        if let pending = refreshDue, !pending.work.isCancelled, pending.due <= due { return }
        refreshDue?.work.cancel()
        let work = DispatchWorkItem { [weak self] in
            self?.refreshDue = nil
            self?.refresh()
        }
        refreshDue = (work, due)
        DispatchQueue.main.asyncAfter(deadline: due, execute: work)
    }

    func refresh() {
        showBacklinks(of: notes.openID)
        lookup.ask("tags", { $0.tagCounts() }) { [weak self] counts in
            self?.tagCounts = counts
            self?.tagList.show(counts)
            LinksReport.tags(counts)
        }
        if let tag = tagList.selected { filter(byTag: tag) }
        notes.openNote.editor.noteLinks.needsMarking(after: 0)
        lookup.ask("title-keys", { $0.refreshTitleKeysInUse() }) { _ in }
    }

    /// The notes linking to the note `id` (the one opening or open), under it.
    func showBacklinks(of id: String?) {
        guard let id, let title = notes.list.summary(id)?.title else {
            backlinks.show([])
            return
        }
        lookup.ask("backlinks", { $0.backlinks(toNote: id, title: title) }) { [weak self] found in
            guard let self, self.notes.live.editedNote == id else { return }
            self.backlinks.show(found)
            LinksReport.backlinks(of: id, found)
        }
    }

    /// Shows only the notes holding the tag `key` (nil: all), with the notebook and the search.
    private func filter(byTag key: String?) {
        guard let key else {
            notes.search.tagged = nil
            notes.search.find(notes.search.entry.text)
            return
        }
        lookup.ask("tagged", { $0.notes(taggedWith: key) }) { [weak self] tagged in
            guard let self, self.tagList.selected == key else { return }
            self.notes.search.tagged = tagged
            self.notes.search.find(self.notes.search.entry.text)
        }
    }

    // MARK: Opening a [[link]]

    /// Opens the note titled `title` (at `heading`, when it has it): the one there is; a
    /// choice among several (at x, y of the text view); or, when none has it, an offer to
    /// create it.
    func openTitle(_ title: String, heading: String? = nil, x: Int, y: Int) {
        let key = TitleKey.of(title)
        lookup.ask("open", { $0.notes(titled: key) }) { [weak self] found in
            guard let self else { return }
            LinksReport.opened(title: title, found: found.count)
            switch found.count {
            case 0: self.offerToCreate(title)
            case 1: self.notes.reveal(found[0].noteID, atHeading: heading)
            default: self.askWhich(found, heading: heading, x: x, y: y)
            }
        }
    }

    private func askWhich(_ choices: [LibraryIndex.TitledNote], heading: String?, x: Int, y: Int) {
        offeredNotes = choices.map(\.noteID)
        offeredHeading = heading
        let menu = Menu()
        for note in choices {
            // TRANSLATORS: a choice among notes with the same title: %1$s is the title, %2$s where the note is ("Work/note.md").
            menu.append(tr("%1$s — %2$s", note.title, PathBytes.display(note.noteID)),
                        action: "links.open-note::" + note.noteID)
        }
        let textView = notes.openNote.editor.textView
        let popover = PopoverMenu(menu, on: textView)
        popover.popup(x: Double(x), y: Double(y))
    }

    /// "No note is titled “X”." — Create Note makes it (in the chosen notebook) and opens it.
    private func offerToCreate(_ title: String) {
        // TRANSLATORS: asked after Ctrl+click on a [[link]] no note has; %s is the linked title.
        ask(tr("No note is titled “%s”", title),
            // TRANSLATORS: the question's explanation.
            explanation: tr("Create a note with this title? The link will lead to it."),
            cancel: tr("Cancel"),
            // TRANSLATORS: a button: makes a new note titled as the link says
            confirm: tr("Create Note")) { [weak self] confirmed in
            if confirmed { self?.notes.createNote(text: title + "\n\n") }
        }
    }

    /// One question about links at a time (a new one replaces the one showing), the
    /// confirming button suggested and the default; `answered` gets whether it was chosen.
    private func ask(_ text: String, explanation: String, cancel: String, confirm: String, answered: @escaping (Bool) -> Void) {
        question?.destroy()
        let dialog = MessageDialog(parent: notes.window, text: text, secondaryText: explanation)
        dialog.addButton(cancel, response: 0)
        dialog.addButton(confirm, response: 1, role: .suggested)
        dialog.setDefaultResponse(1)
        dialog.onResponse { [weak self] dialog, response in
            dialog.destroy()
            if self?.question === dialog { self?.question = nil }
            answered(response == 1)
        }
        question = dialog
        dialog.present()
    }

    // MARK: Links that follow a new title

    /// The open note (if any) was given its title: remembered, to tell a retitling later.
    func rememberTitle(of id: String?) {
        linkedTitle = id.flatMap { id in notes.list.summary(id).map { (id, $0.title) } }
    }

    /// When the note's title changed since it was opened (or last asked about), and notes
    /// link to the old title, asks whether to update them ("Update 3 links in 2 notes?").
    func offerToUpdateLinksIfRetitled() {
        guard let (id, oldTitle) = linkedTitle, let newTitle = notes.list.summary(id)?.title,
              TitleKey.of(newTitle) != TitleKey.of(oldTitle) else { return }
        linkedTitle = (id, newTitle)  // asked once per change
        guard oldTitle != NoteText.untitled, WikiLinkRename.canLink(newTitle) else { return }
        let oldKey = TitleKey.of(oldTitle)
        let folder = notes.library.folder
        lookup.ask("rename", { index -> TitleRename? in
            // Another note still titled so keeps those links: they lead to it.
            guard !index.notes(titled: oldKey).contains(where: { $0.noteID != id }) else { return nil }
            let linking = index.notesLinking(toTitle: oldKey).filter { $0 != id }
            return TitleRename.plan(library: folder, candidates: linking, from: oldTitle, to: newTitle)
        }) { [weak self] rename in
            guard let self, let rename else { return }
            self.askToUpdate(rename, retitled: id)
        }
    }

    private func askToUpdate(_ rename: TitleRename, retitled id: String) {
        let links = rename.linkCount, notes = rename.changes.count
        // TRANSLATORS: asked after a note was retitled; %1$d links in %2$d other notes lead to its old title.
        ask(trn("Update %1$d link in %2$d note?", "Update %1$d links in %2$d notes?", links, links, notes),
            // TRANSLATORS: the question's explanation; %1$s is the old title, %2$s the new one.
            explanation: tr("Links to “%1$s” in other notes can lead to “%2$s” instead.", rename.oldTitle, rename.newTitle),
            // TRANSLATORS: a button: leaves the links to the old title as they are
            cancel: tr("Leave"),
            // TRANSLATORS: a button: rewrites the links to the note's new title
            confirm: tr("Update")) { [weak self] confirmed in
            LinksReport.renameAnswered(update: confirmed)
            if confirmed { self?.update(rename, retitled: id) }
        }
    }

    private func update(_ rename: TitleRename, retitled id: String) {
        notes.io.async {
            let result = Result { try rename.apply() }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let written):
                    self.notes.presenter.refreshIndex(written.map(\.noteID))
                    let links = written.reduce(0) { $0 + $1.links }
                    LinksReport.renamed(notes: written.map(\.noteID))
                    // TRANSLATORS: a toast after links followed a retitled note: %1$d links in %2$d notes.
                    let message = trn("Updated %1$d link in %2$d note", "Updated %1$d links in %2$d notes", links, links, written.count)
                    self.notes.toast.show(message, actionLabel: tr("Undo"), action: { [weak self] in self?.undo(written, of: rename, retitled: id) },
                                    onExpire: {}, takesControlZ: true)
                case .failure(let error):
                    self.notes.list.presentError(OperationError(.updateLinks, note: rename.newTitle, underlying: error)) { [weak self] recovered in
                        if recovered { self?.update(rename, retitled: id) }
                    }
                }
            }
        }
    }

    /// Undo of the whole change: the links written back, and the note its old title again —
    /// in the editor as an edit when it is open, else in its file.
    private func undo(_ changes: [TitleRename.Change], of rename: TitleRename, retitled id: String) {
        let url = notes.library.folder.appendingPathComponent(id)
        let editor = notes.openNote.editor
        var retitleFile = true
        if notes.openID == id, editor.isEditable, let range = TitleRename.titleRange(in: editor.text, title: rename.newTitle) {
            let text = editor.text
            let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound)
            let length = text[range].unicodeScalars.count
            linkedTitle = (id, rename.oldTitle)
            editor.buffer.replace(start..<start + length, with: rename.oldTitle)
            retitleFile = false
        }
        notes.io.async { [retitleFile] in
            if retitleFile { rename.restoreTitle(ofNoteAt: url) }
            let restored = TitleRename.undo(changes)
            DispatchQueue.main.async { [weak self] in
                self?.notes.presenter.refreshIndex(restored)
                LinksReport.renameUndone(notes: restored)
            }
        }
    }
}
