import Foundation
import Gtk
import NotesCore

/// Show Conflicts: the note's text and one other version side by side, each saying where it
/// came from and when, the lines that differ highlighted, and Keep This / Keep Other /
/// Keep Both. Decide Later (or Escape) leaves both versions as they are. With several other
/// versions, they come one after another.
final class ConflictWindow {
    let window = Window()
    private let summary = Label()
    // TRANSLATORS: heading of the column with the note's own text in Show Conflicts
    private let thisColumn = VersionColumn(heading: tr("This Version"))
    // TRANSLATORS: heading of the column with the conflicting version in Show Conflicts
    private let otherColumn = VersionColumn(heading: tr("Other Version"))
    // TRANSLATORS: button in Show Conflicts: keep the note's own version
    let keepThis = Button(label: tr("Keep This"))
    // TRANSLATORS: button in Show Conflicts: keep the other version
    let keepOther = Button(label: tr("Keep Other"))
    // TRANSLATORS: button in Show Conflicts: keep both versions (the other becomes a new note)
    let keepBoth = Button(label: tr("Keep Both"))
    // TRANSLATORS: button in Show Conflicts: leave both versions as they are for now
    let decideLater = Button(label: tr("Decide Later"))
    /// The version on the right.
    private(set) var other: ConflictingVersion?
    /// The user chose; the window stays until the choice is carried out.
    var onChoice: ((ConflictingVersion, ConflictWindow.Choice) -> Void)?
    var onClose: (() -> Void)?

    enum Choice { case keepThis, keepOther, keepBoth }

    static let highlightTag = "conflict-difference"

    init(parent: Window?) {
        window.title = tr("Resolve Conflict")
        window.transientFor = parent
        window.isModal = true
        window.setDefaultSize(width: 900, height: 560)
        let content = Box(.vertical, spacing: 12)
        content.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        summary.xalign = 0
        summary.wraps = true
        content.append(summary)
        let columns = Box(.horizontal, spacing: 12)
        columns.vexpand = true
        columns.isHomogeneous = true
        columns.append(thisColumn.root)
        columns.append(otherColumn.root)
        content.append(columns)
        let buttons = Box(.horizontal, spacing: 8)
        buttons.halign = .end
        keepThis.addCSSClass("suggested-action")
        keepThis.accessibleLabel = tr("Keep This Version")
        keepOther.accessibleLabel = tr("Keep the Other Version")
        keepBoth.accessibleLabel = tr("Keep Both: the other version becomes a new note")
        decideLater.accessibleLabel = tr("Decide Later")
        for button in [decideLater, keepBoth, keepOther, keepThis] { buttons.append(button) }
        content.append(buttons)
        window.child = content

        keepThis.onClicked { [weak self] _ in self?.choose(.keepThis) }
        keepOther.onClicked { [weak self] _ in self?.choose(.keepOther) }
        keepBoth.onClicked { [weak self] _ in self?.choose(.keepBoth) }
        decideLater.onClicked { [weak self] _ in self?.window.close() }
        window.onEscape { [weak self] in self?.window.close() }
        window.onCloseRequest { [weak self] _ in
            self?.onClose?()
            return false
        }
    }

    /// Shows `document`'s text against its first other version (closes when there is none).
    func show(_ document: NoteDocument) {
        guard let other = document.otherVersions.first else { return close() }
        self.other = other
        let thisText = document.contentProvider?() ?? document.text
        let count = document.otherVersions.count
        summary.text = ConflictWindow.summary(note: document.displayName, other: other, remaining: count)
        thisColumn.show(thisText, origin: ConflictWindow.describeThis(document, other: other))
        otherColumn.show(other.text, origin: ConflictWindow.describeOther(other))
        VersionColumn.highlightDifferences(thisColumn, thisText, otherColumn, other.text)
        keepOther.isSensitive = !document.isReadOnly
        setBusy(false)
        window.present()
    }

    func setBusy(_ busy: Bool) {
        for button in [keepThis, keepOther, keepBoth] { button.isSensitive = !busy }
    }

    func close() {
        onClose?()
        onClose = nil
        window.destroy()
    }

    /// The texts shown (tests read them back).
    var shownTexts: (this: String, other: String) { (thisColumn.buffer.text, otherColumn.buffer.text) }
    func thisLineIsHighlighted(_ line: Int) -> Bool { thisColumn.buffer.lineHasTag(ConflictWindow.highlightTag, line: line) }
    func otherLineIsHighlighted(_ line: Int) -> Bool { otherColumn.buffer.lineHasTag(ConflictWindow.highlightTag, line: line) }
    var origins: (this: String, other: String) { (thisColumn.origin.text, otherColumn.origin.text) }

    private func choose(_ choice: Choice) {
        guard let other else { return }
        setBusy(true)
        onChoice?(other, choice)
    }

    // MARK: Wording

    static func summary(note: String, other: ConflictingVersion, remaining: Int) -> String {
        let what: String
        switch other.origin {
        case .changedOnDisk:
            // TRANSLATORS: %s is the note's title
            what = tr("“%s” was changed on disk (by another device or program) while you were editing it, and the changes touch the same lines.", note)
        case .conflictCopy(let copy):
            // TRANSLATORS: %1$s is a sync program (Syncthing, Dropbox…), %2$s the note's title
            what = tr("%1$s found that “%2$s” was changed on two devices and kept both versions.", copy.client.title, note)
        }
        var sentences = [what, tr("Choose what to keep; lines that differ are highlighted. The version you do not keep is set aside in the note’s history (Browse Versions), not deleted.")]
        if remaining > 1 {
            sentences.append(trn("(%d more version after this one.)", "(%d more versions after this one.)", remaining - 1))
        }
        return sentences.joined(separator: " ")
    }

    /// Where the editor's text came from, truthfully: this computer when it was typed or
    /// saved here; otherwise what the sync client's name says.
    static func describeThis(_ document: NoteDocument, other: ConflictingVersion) -> String {
        // TRANSLATORS: where the editor's text came from, instead of its date: not saved yet
        let date = document.hasUnsavedChanges ? tr("unsaved edits") : describe(document.fileModificationDate)
        let source: String
        if document.thisVersionIsLocal {
            // TRANSLATORS: where a version came from (followed by its date)
            source = tr("This computer")
        } else if case .conflictCopy(let copy) = other.origin, copy.client == .syncthing, let device = copy.device {
            // Syncthing names the copy after the device whose version won: the one in the note.
            // TRANSLATORS: where a version came from; %s is Syncthing's short device id
            source = tr("Device %s (Syncthing)", device)
        } else {
            // TRANSLATORS: where a version came from (followed by its date)
            source = tr("The note’s file")
        }
        return "\(source) · \(date)"
    }

    static func describeOther(_ other: ConflictingVersion) -> String {
        let date = describe(other.modified)
        let source: String
        if other.writtenHere {
            source = tr("This computer")
        } else {
            switch other.origin {
            // TRANSLATORS: where a version came from (followed by its date)
            case .changedOnDisk: source = tr("Changed on disk by another device or program")
            // TRANSLATORS: where a version came from; %s is a sync program (Syncthing, Dropbox…)
            case .conflictCopy(let copy): source = tr("Another device (%s)", copy.client.title)
            }
        }
        return "\(source) · \(date)"
    }

    private static func describe(_ date: Date?) -> String {
        // TRANSLATORS: a version's date is not known
        guard let date else { return tr("date unknown") }
        let formatter = DateFormatter()
        formatter.locale = Localization.locale
        formatter.setLocalizedDateFormatFromTemplate("dMMMjmm")
        let relative = RelativeTimeFormatter().string(for: date, inSentence: true)
        // TRANSLATORS: a version's date: %1$s relative ("5 minutes ago", "yesterday"), %2$s exact
        return tr("modified %1$s (%2$s)", relative, formatter.string(from: date))
    }
}
