import Foundation
import Gtk
import NotesCore

/// Notes made from templates (issue #48; `NoteTemplate`: the notes of a "Templates" notebook).
///
/// Today's note: Main Menu ▸ Today's Note, Ctrl+T, the desktop entry's action and
/// `notula --today` open the note titled with today's date (`TodaysNote`: ISO 8601 or the
/// style Preferences chose), found by its title in the index — so a sync client's rename of
/// its file, or a move to another notebook, never makes a second one. When there is none, it
/// is made in the notebook Preferences name (made when missing; the top of the library by
/// default), from the template "Today" when there is one, its `{{date}}` said as the title says it.
///
/// New Note from Template… lists the templates under the New Note button; the one chosen
/// becomes a new note in the notebook shown, as Ctrl+N makes one.
final class TemplatesController {
    private unowned let notes: NotesController
    /// The note made in this run for a date, before the index lists it: asked again
    /// meanwhile, that note opens (nil id: still being made, the request waits for it).
    private var madeToday: (title: String, id: String?)?
    private var todayWaitsForMade = false
    /// The templates offered (their ids), what `use` chooses among.
    private(set) var offered: [String] = []
    private let use = SimpleAction(name: "use", choice: "")
    /// Where today's note is made and how its title says the date (Preferences).
    var todaySettings: () -> (notebook: String, style: TodaysNote.TitleStyle) = { ("", .iso) }

    init(notes: NotesController) {
        self.notes = notes
        use.onChangeState { [weak self] _, id in
            guard let self, self.offered.contains(id) else { return }
            self.makeNote(from: id, title: NoteTemplate.name(of: id), titleFirst: false, in: nil)
        }
    }

    // MARK: Today's note

    /// Opens today's note, making it first when there is none.
    func openToday(now: Date = Date()) {
        let settings = todaySettings()
        let title = TodaysNote.title(for: now, style: settings.style)
        if let made = madeToday, made.title == title {
            guard let id = made.id else { return todayWaitsForMade = true }
            if notes.list.summary(id) != nil, notes.reveal(id) { return }
        }
        // Once the index equals the folder: a note of today another device made since the last
        // run is found, not made again.
        notes.presenter.whenReconciled { [weak self] in
            guard let self else { return }
            let key = TitleKey.of(title)
            self.notes.links.lookup.ask("today", { index in
                (found: index.notesNotTemplates(titled: key), template: index.templateIDs().first { NoteTemplate.name(of: $0).lowercased() == "today" })
            }) { [weak self] answer in
                guard let self else { return }
                if let id = answer.found.first { return _ = self.notes.reveal(id) }
                guard self.madeToday?.title != title || self.madeToday?.id != nil else { return }  // being made
                self.madeToday = (title, nil)
                self.makeNote(from: answer.template, title: title, titleFirst: true, in: settings.notebook, date: now, dateText: title) { [weak self] id in
                    guard let self else { return }
                    self.madeToday = (title, id)
                    if self.todayWaitsForMade {
                        self.todayWaitsForMade = false
                        _ = self.notes.reveal(id)
                    }
                }
            }
        }
    }

    // MARK: New Note from Template…

    /// The templates as a menu under `anchor` (the New Note button); none yet: a notice says
    /// how to make one.
    func choose(on anchor: Widget) {
        anchor.addActions([use], prefix: "templates")
        notes.presenter.whenReconciled { [weak self] in
            guard let self else { return }
            self.notes.links.lookup.ask("templates", { $0.templateIDs() }) { [weak self, weak anchor] ids in
                guard let self, let anchor else { return }
                self.offered = ids
                guard !ids.isEmpty else {
                    // TRANSLATORS: a notice: New Note from Template… found no templates.
                    return self.notes.toast.show(tr("No templates yet: the notes of a notebook named “Templates” are templates"))
                }
                let menu = Menu()
                for id in ids {
                    menu.appendVerbatim(NoteTemplate.name(of: id), action: "templates.use::" + id)
                }
                PopoverMenu(menu, on: anchor).popup(x: 0, y: Double(anchor.height))
            }
        }
    }

    // MARK: Making a note

    /// A new note in `notebook` (nil: the one shown) from the template `template` (nil: an
    /// empty one) titled `title`, opened with the cursor where `{{cursor}}` was (else at the
    /// end); `made` gets its id.
    private func makeNote(from template: String?, title: String, titleFirst: Bool, in notebook: String?, date: Date = Date(),
                          dateText: String? = nil, made: (@MainActor @Sendable (String) -> Void)? = nil) {
        let library = notes.library.folder
        let target = notebook ?? notes.notebooks.selected ?? ""
        notes.io.async { [weak self] in
            // A template is a note: read as one, no larger than the editor takes one.
            let text = template.flatMap { LibraryNoteID.file($0, in: library) }
                .flatMap { try? RegularFile.prefix($0, count: LargeNote.maximumBytes).bytes }
                .map { NoteEncoding.decode(Data($0)).text }
            let filled = NoteTemplate.fill(text ?? "", templateID: template ?? "", notebook: target, title: title, titleFirst: titleFirst,
                                           date: date, dateText: dateText)
            // A notebook chosen for today's note and not there yet (a failure shows as the create's).
            try? TodaysNote.prepare(notebook: target, in: library)
            DispatchQueue.main.async { [weak self] in
                self?.notes.createNote(text: filled.text, in: target, cursor: filled.cursor ?? filled.text.unicodeScalars.count, made: made)
            }
        }
    }
}
