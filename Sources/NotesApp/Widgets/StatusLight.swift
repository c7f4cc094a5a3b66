import Gtk
import NotesCore

/// The open note's status in the header: a coloured dot with words.
/// Green "Saved" (or "Edited" while autosave is pending), yellow "Conflict" with a
/// "Show Conflicts" button, red "Unsaved" with the reason on hover and click; grey "Moving…"
/// while every note moves to another folder (the editor is read-only then).
/// The accessible name says the same in words, so colour is never the only signal.
final class StatusLight {
    enum Level: Equatable {
        case saved, edited, conflict, unsaved(reason: String), moving
    }

    let root = Box(.horizontal, spacing: 6)
    private let dot = Box(.horizontal)
    private let words = Label()
    /// The light itself (its accessible name says the state in words).
    let button: Button
    let showConflictsButton = Button(label: tr("Show Conflicts"))
    private(set) var level: Level = .saved

    /// The user clicked the light while it is red (show the reason and ways out).
    var onShowReason: (() -> Void)?
    var onShowConflicts: (() -> Void)?

    init() {
        let content = Box(.horizontal, spacing: 6)
        dot.addCSSClass("status-dot")
        dot.valign = .center
        content.append(dot)
        content.append(words)
        button = Button(child: content)
        button.hasFrame = false
        root.append(button)
        root.append(showConflictsButton)
        showConflictsButton.addCSSClass("suggested-action")
        showConflictsButton.accessibleLabel = tr("Show Conflicts")
        button.onClicked { [weak self] _ in
            guard let self, case .unsaved = self.level else { return }
            self.onShowReason?()
        }
        showConflictsButton.onClicked { [weak self] _ in self?.onShowConflicts?() }
        show(.saved)
        root.isVisible = false
    }

    /// Looks at the document and shows what it finds.
    func follow(_ document: NoteDocument?) {
        guard let document else { root.isVisible = false; return }
        root.isVisible = true
        show(Self.level(of: document))
    }

    static func level(of document: NoteDocument) -> Level {
        if document.state.contains(.progressAvailable) { return .moving }
        if document.state.contains(.inConflict) { return .conflict }
        if document.fileIsMissing {
            return .unsaved(reason: tr("The file was deleted or moved by another program. Your text is still here; choose Save Again to keep it."))
        }
        if document.state.contains(.savingError) {
            return .unsaved(reason: document.lastError.map { ErrorTranslator.explain($0).recoverySuggestion } ?? tr("The last save failed."))
        }
        return document.hasUnsavedChanges && !document.isReadOnly ? .edited : .saved
    }

    func show(_ level: Level) {
        self.level = level
        for name in ["saved", "conflict", "unsaved"] { dot.removeCSSClass(name) }
        switch level {
        case .saved, .edited:
            dot.addCSSClass("saved")
            // TRANSLATORS: the open note's status in the header: "Saved", or "Edited" while a save is pending.
            words.text = level == .saved ? tr("Saved") : tr("Edited")
            button.tooltip = level == .saved ? tr("All changes are saved") : tr("Changes will be saved in a moment")
            button.accessibleLabel = level == .saved ? tr("Note status: Saved") : tr("Note status: Edited")
            showConflictsButton.isVisible = false
        case .conflict:
            dot.addCSSClass("conflict")
            // TRANSLATORS: the open note's status in the header.
            words.text = tr("Conflict")
            button.tooltip = tr("This note was changed somewhere else while you edited it. Both versions are kept.")
            button.accessibleLabel = tr("Note status: Conflict. Another version of this note exists.")
            showConflictsButton.isVisible = true
        case .unsaved(let reason):
            dot.addCSSClass("unsaved")
            // TRANSLATORS: the open note's status in the header.
            words.text = tr("Unsaved")
            button.tooltip = reason
            // TRANSLATORS: %s says why the note is not saved (one or more sentences).
            button.accessibleLabel = tr("Note status: Unsaved. %s", reason)
            showConflictsButton.isVisible = false
        case .moving:
            // TRANSLATORS: the open note's status in the header while every note moves to another folder.
            words.text = tr("Moving…")
            button.tooltip = tr("Your notes are moving to another folder. You can type again once they are there.")
            button.accessibleLabel = tr("Note status: Moving. You can type again once every note has moved.")
            showConflictsButton.isVisible = false
        }
    }

    var text: String { words.text }
}
