import Foundation
import Gtk
import NotesCore

/// Preferences ▸ Today's Note (issue #48): the notebook today's note is made in (typed as a
/// path, "Journal" or "Work/Journal"; empty: the top of the library; made when missing) and how
/// its title says the date — ISO 8601, or the user's language's long or full date, each shown
/// as today's title would be. Saved as the user changes them; a path that cannot be a notebook
/// is said under the field and not saved.
final class TodaysNoteSettings {
    let root = Box(.vertical, spacing: 6)
    private let storage: StorageController
    private let notebook = Entry()
    private let notice = Label()
    private let titlePicker: ChoicePicker<TodaysNote.TitleStyle>
    private var showing = false

    init(storage: StorageController) {
        self.storage = storage
        let today = Date()
        titlePicker = ChoicePicker(
            // TRANSLATORS: a heading in Preferences ▸ Today's Note: the choices below are how its title says the date.
            heading: tr("Title"),
            choices: TodaysNote.TitleStyle.allCases.map { ($0, TodaysNote.title(for: today, style: $0)) },
            // TRANSLATORS: names the title choices for screen readers ("Today's note title: 2026-11-30").
            accessiblePrefix: tr("Today's note title"), stacked: true)
        // TRANSLATORS: a heading in Preferences (the note of the day: Ctrl+T, notula --today).
        let heading = Label(tr("Today’s Note"))
        heading.addCSSClass("heading")
        heading.xalign = 0
        heading.setMargins(top: 18, bottom: 0, start: 0, end: 0)
        let row = Box(.horizontal, spacing: 12)
        // TRANSLATORS: a label in Preferences ▸ Today's Note, before the field naming the notebook it is made in; "_" marks the Alt key.
        row.append(Label(mnemonic: tr("_Notebook"), for: notebook))
        // TRANSLATORS: the grey hint of the empty notebook field of Today's Note.
        notebook.setPlaceholder(tr("The top of the library"))
        // TRANSLATORS: the accessible name of the field naming the notebook today's note is made in.
        notebook.accessibleLabel = tr("Today's note notebook")
        notebook.hexpand = true
        row.append(notebook)
        notice.xalign = 0
        notice.wraps = true
        notice.addCSSClass("note-meta")
        titlePicker.root.setMargins(top: 6, bottom: 0, start: 0, end: 0)
        for widget: Widget in [heading, row, notice, titlePicker.root] { root.append(widget) }
        notebook.onChanged { [weak self] entry in self?.notebookTyped(entry.text) }
        titlePicker.onChoose = { [weak self] style in
            self?.storage.updatePreferences { $0.todayTitle = style == .iso ? nil : style.rawValue }
        }
        refresh()
    }

    /// Shows the saved choices.
    func refresh() {
        showing = true
        notebook.text = storage.preferences.todayNotebookPath
        showing = false
        titlePicker.show(storage.preferences.todayTitleStyle)
        explain(storage.preferences.todayNotebookPath)
    }

    private func notebookTyped(_ typed: String) {
        guard !showing else { return }
        guard let path = TodaysNote.notebookPath(typed) else {
            // TRANSLATORS: Preferences ▸ Today's Note: the notebook typed cannot be one (a hidden name, "..").
            notice.text = tr("“%s” cannot be a notebook: names may not start with a dot or ~. Today’s note stays where it was.", typed)
            return
        }
        storage.updatePreferences { $0.todayNotebook = path.isEmpty ? nil : path }
        explain(path)
    }

    private func explain(_ path: String) {
        notice.text = path.isEmpty
            // TRANSLATORS: Preferences ▸ Today's Note, no notebook chosen.
            ? tr("Made at the top of the library, from the template “Today” when there is one.")
            // TRANSLATORS: Preferences ▸ Today's Note: %s is the notebook.
            : tr("Made in “%s” (made too when it is not there yet), from the template “Today” when there is one.", path)
    }
}
