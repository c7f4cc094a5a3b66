import Dispatch
import Foundation
import Gtk
import NotesCore

/// Browse Versions: a note's past versions (newest first, with relative dates, why each was
/// kept and how the size changed), the chosen one beside the current text with the lines that
/// differ highlighted (Show Conflicts' columns), and Restore, Copy, Open as New Note.
/// Without an open note (none chosen, the library folder missing) it lists every note's
/// history, deleted notes' too; then there is nothing to restore into, only Copy and Open
/// as New Note. It shows what it is given and reports what the user asks for.
final class HistoryWindow {
    /// One note's versions in the list (`title` nil: the open note's, no heading).
    struct Section {
        let title: String?
        let versions: [HistoryVersion]
    }

    let window = Window()
    private let summary = Label()
    private let rows = Box(.vertical, spacing: 0)
    private let emptyState = Label("No versions yet. Notula keeps one when a note is opened, every few minutes while you write, and when you leave it.")
    private let chosenColumn = VersionColumn(heading: "Chosen Version")
    private let currentColumn = VersionColumn(heading: "Current Text")
    let restore = Button(label: "Restore")
    let copy = Button(label: "Copy")
    let openAsNew = Button(label: "Open as New Note")
    /// Every note's history, deleted notes' too (shown beside one note's versions).
    let allNotes = Button(label: "All Notes")
    private let closeButton = Button(label: "Close")
    private var rowButtons: [(button: Button, version: HistoryVersion)] = []
    private let timeFormatter = RelativeTimeFormatter()
    /// The current text (nil: no note to compare with or restore into).
    private var current: String?
    private(set) var chosen: (version: HistoryVersion, text: String)?
    /// Reads a version's text (off the main thread).
    private var load: ((HistoryVersion) -> String?)?
    private var loading = 0
    private var canRestore = true

    var onRestore: ((String) -> Void)?
    var onOpenAsNew: ((String) -> Void)?
    var onShowAllNotes: (() -> Void)?
    var onClose: (() -> Void)?

    init(parent: Window?) {
        window.transientFor = parent
        window.isModal = true
        window.setDefaultSize(width: 940, height: 580)
        let content = Box(.vertical, spacing: 12)
        content.setMargins(top: 18, bottom: 18, start: 18, end: 18)
        summary.xalign = 0
        summary.wraps = true
        content.append(summary)
        let body = Box(.horizontal, spacing: 12)
        body.vexpand = true
        let list = ScrolledWindow()
        list.scrollVerticallyOnly()
        list.child = rows
        list.setSizeRequest(width: 270, height: -1)
        list.addCSSClass("frame")
        rows.accessibleLabel = "Versions"
        emptyState.wraps = true
        emptyState.addCSSClass("note-meta")
        emptyState.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        rows.append(emptyState)
        body.append(list)
        let columns = Box(.horizontal, spacing: 12)
        columns.hexpand = true
        columns.isHomogeneous = true
        columns.append(chosenColumn.root)
        columns.append(currentColumn.root)
        body.append(columns)
        content.append(body)
        let buttons = Box(.horizontal, spacing: 8)
        restore.addCSSClass("suggested-action")
        restore.tooltip = "Put this version in the editor (Ctrl+Z takes it back)"
        copy.tooltip = "Copy this version's text"
        openAsNew.tooltip = "Make a new note holding this version"
        allNotes.tooltip = "Every note's versions, deleted notes' too"
        allNotes.hexpand = true
        allNotes.halign = .start
        for button in [allNotes, closeButton, copy, openAsNew, restore] { buttons.append(button) }
        content.append(buttons)
        window.child = content

        restore.onClicked { [weak self] _ in
            guard let self, let text = self.chosen?.text else { return }
            self.onRestore?(text)
        }
        copy.onClicked { [weak self] _ in
            guard let self, let text = self.chosen?.text else { return }
            self.window.copyToClipboard(text)
        }
        openAsNew.onClicked { [weak self] _ in
            guard let self, let text = self.chosen?.text else { return }
            self.onOpenAsNew?(text)
        }
        closeButton.onClicked { [weak self] _ in self?.close() }
        allNotes.onClicked { [weak self] _ in self?.onShowAllNotes?() }
        window.onEscape { [weak self] in self?.close() }
        window.onCloseRequest { [weak self] _ in
            self?.onClose?()
            self?.onClose = nil
            return false
        }
    }

    /// Shows `sections` (newest first within each), compared with `current` when there is a
    /// note; `load` reads a version's text. The newest version is chosen.
    /// `canRestore` is false for a read-only note; `problem` says why there is no history.
    func show(title: String, sections: [Section], current: String?, canRestore: Bool = true, problem: String? = nil,
              load: @escaping (HistoryVersion) -> String?) {
        window.title = title
        self.current = current
        self.canRestore = canRestore && current != nil
        self.load = load
        summary.text = problem.map { "Notula cannot keep versions on this computer: \($0)" } ?? (current == nil
            ? "Every note’s versions kept on this computer, deleted notes’ too. Choose one to read it, copy it or open it as a new note."
            : "Versions of this note kept on this computer. Choose one to compare it with the current text; lines that differ are highlighted.")
        currentColumn.root.isVisible = current != nil
        restore.isVisible = current != nil
        allNotes.isVisible = current != nil
        for (button, _) in rowButtons { rows.remove(button) }
        for heading in headings { rows.remove(heading) }
        headings = []
        rowButtons = []
        for section in sections {
            if let title = section.title {
                let heading = Label(title)
                heading.addCSSClass("heading")
                heading.xalign = 0
                heading.ellipsizesAtEnd = true
                heading.setMargins(top: 10, bottom: 4, start: 10, end: 10)
                rows.append(heading)
                headings.append(heading)
            }
            for (index, version) in section.versions.enumerated() {
                let older = index + 1 < section.versions.count ? section.versions[index + 1] : nil
                let button = makeRow(version, older: older)
                rows.append(button)
                rowButtons.append((button, version))
            }
        }
        emptyState.isVisible = rowButtons.isEmpty
        if let first = rowButtons.first { choose(first.version) } else { showChosen(nil) }
        window.present()
    }

    private var headings: [Label] = []

    func close() {
        onClose?()
        onClose = nil
        window.destroy()
    }

    /// Chooses `version`: its text is read and shown beside the current text.
    func choose(_ version: HistoryVersion) {
        for (button, shown) in rowButtons {
            if shown == version { button.addCSSClass("selected-version") } else { button.removeCSSClass("selected-version") }
        }
        loading += 1
        let ticket = loading
        guard let load else { return }
        DispatchQueue.global(qos: .userInitiated).async {
            let text = load(version)
            DispatchQueue.main.async { [weak self] in
                guard let self, self.loading == ticket else { return }
                self.showChosen(text.map { (version, $0) })
            }
        }
    }

    private func showChosen(_ chosen: (version: HistoryVersion, text: String)?) {
        self.chosen = chosen
        for button in [restore, copy, openAsNew] { button.isSensitive = chosen != nil }
        guard let chosen else {
            chosenColumn.show("", origin: rowButtons.isEmpty ? "" : "This version could not be read.")
            currentColumn.show(current ?? "", origin: "Now")
            return
        }
        chosenColumn.show(chosen.text, origin: describe(chosen.version))
        guard let current else { return }
        currentColumn.show(current, origin: "Now, in the editor")
        VersionColumn.highlightDifferences(chosenColumn, chosen.text, currentColumn, current)
        restore.isSensitive = canRestore && chosen.text != current
    }

    private func makeRow(_ version: HistoryVersion, older: HistoryVersion?) -> Button {
        let box = Box(.vertical, spacing: 2)
        let when = Label("\(timeFormatter.string(for: version.date)) · \(Self.timeOfDay(version.date))")
        when.addCSSClass("note-title")
        let what = Label("\(Self.reason(version.origin)) · \(Self.sizeChange(version, older: older))")
        what.addCSSClass("note-meta")
        for label in [when, what] {
            label.xalign = 0
            label.ellipsizesAtEnd = true
            box.append(label)
        }
        let button = Button(child: box)
        button.hasFrame = false
        button.addCSSClass("version-row")
        button.accessibleLabel = "\(when.text), \(what.text)"
        button.tooltip = Self.exactDate(version.date)
        button.onClicked { [weak self] _ in self?.choose(version) }
        return button
    }

    private func describe(_ version: HistoryVersion) -> String {
        "\(Self.reason(version.origin)) · \(Self.exactDate(version.date))"
    }

    /// The list rows (tests read them).
    var shownVersions: [HistoryVersion] { rowButtons.map(\.version) }
    var shownTexts: (chosen: String, current: String) { (chosenColumn.buffer.text, currentColumn.buffer.text) }
    func chosenLineIsHighlighted(_ line: Int) -> Bool { chosenColumn.buffer.lineHasTag(ConflictWindow.highlightTag, line: line) }
    func rowLabel(_ index: Int) -> String { rowButtons[index].button.accessibleLabel }

    // MARK: Wording

    /// Why a version was kept, as a list row says it.
    static func reason(_ origin: HistoryVersion.Origin) -> String {
        switch origin {
        case .opened: return "Opened"
        case .edited: return "While editing"
        case .closed: return "Closed"
        case .beforeRevert: return "Before Revert"
        case .beforeReload: return "Before a change from elsewhere"
        case .beforeMerge: return "Before merging changes from elsewhere"
        case .beforeRestore: return "Before a restore"
        case .trashed: return "Moved to the Trash"
        case .restoredFromTrash: return "Restored from the Trash"
        case .otherVersion: return "Set aside: the other version in a conflict"
        case .replacedVersion: return "Set aside: this computer’s version in a conflict"
        case .discarded: return "Discarded version"
        }
    }

    /// "+120 bytes", "−2.1 kB" against the version before it; the size for the oldest.
    static func sizeChange(_ version: HistoryVersion, older: HistoryVersion?) -> String {
        let formatter = ByteCountFormatter()
        formatter.countStyle = .file
        guard let older else { return version.size == 0 ? "empty" : formatter.string(fromByteCount: Int64(version.size)) }
        let change = version.size - older.size
        if change == 0 { return "same size" }
        return (change > 0 ? "+" : "−") + formatter.string(fromByteCount: Int64(abs(change)))
    }

    static func timeOfDay(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.setLocalizedDateFormatFromTemplate(Calendar.current.isDateInToday(date) ? "jmmss" : "dMMMjmm")
        return formatter.string(from: date)
    }

    static func exactDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.setLocalizedDateFormatFromTemplate("EEEEdMMMMyjmmss")
        return formatter.string(from: date)
    }
}
