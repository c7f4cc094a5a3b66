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
    private let thisColumn = VersionColumn(heading: "This Version")
    private let otherColumn = VersionColumn(heading: "Other Version")
    let keepThis = Button(label: "Keep This")
    let keepOther = Button(label: "Keep Other")
    let keepBoth = Button(label: "Keep Both")
    let decideLater = Button(label: "Decide Later")
    /// The version on the right.
    private(set) var other: ConflictingVersion?
    /// The user chose; the window stays until the choice is carried out.
    var onChoice: ((ConflictingVersion, ConflictWindow.Choice) -> Void)?
    var onClose: (() -> Void)?

    enum Choice { case keepThis, keepOther, keepBoth }

    static let highlightTag = "conflict-difference"

    init(parent: Window?) {
        window.title = "Resolve Conflict"
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
        keepThis.accessibleLabel = "Keep This Version"
        keepOther.accessibleLabel = "Keep the Other Version"
        keepBoth.accessibleLabel = "Keep Both: the other version becomes a new note"
        decideLater.accessibleLabel = "Decide Later"
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
            what = "“\(note)” was changed on disk (by another device or program) while you were editing it, and the changes touch the same lines."
        case .conflictCopy(let copy):
            what = "\(copy.client.rawValue) found that “\(note)” was changed on two devices and kept both versions."
        }
        let more = remaining > 1 ? " (\(remaining - 1) more version\(remaining > 2 ? "s" : "") after this one.)" : ""
        return what + " Choose what to keep; lines that differ are highlighted. The version you do not keep is set aside in the note’s history (Browse Versions), not deleted." + more
    }

    /// Where the editor's text came from, truthfully: this computer when it was typed or
    /// saved here; otherwise what the sync client's name says.
    static func describeThis(_ document: NoteDocument, other: ConflictingVersion) -> String {
        let date = document.hasUnsavedChanges ? "unsaved edits" : describe(document.fileModificationDate)
        if document.thisVersionIsLocal { return "This computer · \(date)" }
        if case .conflictCopy(let copy) = other.origin, copy.client == .syncthing, let device = copy.device {
            // Syncthing names the copy after the device whose version won: the one in the note.
            return "Device \(device) (Syncthing) · \(date)"
        }
        return "The note’s file · \(date)"
    }

    static func describeOther(_ other: ConflictingVersion) -> String {
        let date = describe(other.modified)
        if other.writtenHere { return "This computer · \(date)" }
        switch other.origin {
        case .changedOnDisk: return "Changed on disk by another device or program · \(date)"
        case .conflictCopy(let copy): return "Another device (\(copy.client.rawValue)) · \(date)"
        }
    }

    private static func describe(_ date: Date?) -> String {
        guard let date else { return "date unknown" }
        let formatter = DateFormatter()
        formatter.setLocalizedDateFormatFromTemplate("dMMMjmm")
        return "modified \(RelativeTimeFormatter().string(for: date).lowercased()) (\(formatter.string(from: date)))"
    }
}
