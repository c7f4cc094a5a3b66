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
    /// The list: widgets only for the rows GTK shows (5,000 versions made 5,000 buttons). Ids
    /// are "h<n>" for `headings[n]` and "v<n>" for `versions[n]`.
    private let rows = RecyclingListView<VersionRow>(widgetOf: { $0.root }, selectable: false)
    private let rowsScroller = ScrolledWindow()
    /// The notes' headings (every note's history) and the versions, in list order; each
    /// version with the one before it (its size change).
    private var headings: [String] = []
    private var versions: [(version: HistoryVersion, older: HistoryVersion?)] = []
    /// The chosen version's place in `versions`.
    private var chosenIndex: Int?
    private let emptyState = Label(tr("No versions yet. Notula keeps one when a note is opened, every few minutes while you write, and when you leave it."))
    // TRANSLATORS: heading of the column with the version chosen in Browse Versions
    private let chosenColumn = VersionColumn(heading: tr("Chosen Version"))
    // TRANSLATORS: heading of the column with the note's text now, in Browse Versions
    private let currentColumn = VersionColumn(heading: tr("Current Text"))
    // TRANSLATORS: button in Browse Versions: put the chosen version in the editor
    let restore = Button(label: tr("Restore"))
    // TRANSLATORS: button in Browse Versions: copy the chosen version's text
    let copy = Button(label: tr("Copy"))
    let openAsNew = Button(label: tr("Open as New Note"))
    /// Every note's history, deleted notes' too (shown beside one note's versions).
    // TRANSLATORS: button in Browse Versions: show every note's versions
    let allNotes = Button(label: tr("All Notes"))
    // TRANSLATORS: button: close the window
    private let closeButton = Button(label: tr("Close"))
    private let timeFormatter = RelativeTimeFormatter()
    /// The current text (nil: no note to compare with or restore into).
    private var current: String?
    private(set) var chosen: (version: HistoryVersion, text: String)?
    /// Reads a version's text (off the main thread).
    private var load: (@Sendable (HistoryVersion) -> String?)?
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
        let list = Box(.vertical, spacing: 0)
        rowsScroller.scrollVerticallyOnly()
        rowsScroller.child = rows
        rowsScroller.vexpand = true
        list.setSizeRequest(width: 270, height: -1)
        list.addCSSClass("frame")
        // TRANSLATORS: accessible name of the list of versions
        rows.accessibleLabel = tr("Versions")
        rows.onMakeRow = { [weak self] in
            let row = VersionRow()
            row.onChoose = { index in
                guard let self, self.versions.indices.contains(index) else { return }
                self.choose(self.versions[index].version)
            }
            return row
        }
        rows.onShowRow = { [weak self] row, id in self?.fill(row, id) }
        emptyState.wraps = true
        emptyState.addCSSClass("note-meta")
        emptyState.setMargins(top: 24, bottom: 24, start: 12, end: 12)
        emptyState.valign = .start
        emptyState.vexpand = true
        list.append(emptyState)
        list.append(rowsScroller)
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
        restore.tooltip = tr("Put this version in the editor (Ctrl+Z takes it back)")
        copy.tooltip = tr("Copy this version's text")
        openAsNew.tooltip = tr("Make a new note holding this version")
        allNotes.tooltip = tr("Every note's versions, deleted notes' too")
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
              load: @escaping @Sendable (HistoryVersion) -> String?) {
        window.title = title
        self.current = current
        self.canRestore = canRestore && current != nil
        self.load = load
        // TRANSLATORS: %s is why (a sentence from the system or the history store)
        summary.text = problem.map { tr("Notula cannot keep versions on this computer: %s", $0) } ?? (current == nil
            ? tr("Every note’s versions kept on this computer, deleted notes’ too. Choose one to read it, copy it or open it as a new note.")
            : tr("Versions of this note kept on this computer. Choose one to compare it with the current text; lines that differ are highlighted."))
        currentColumn.root.isVisible = current != nil
        restore.isVisible = current != nil
        allNotes.isVisible = current != nil
        headings = []
        versions = []
        var ids: [String] = []
        for section in sections {
            if let title = section.title {
                ids.append("h\(headings.count)")
                headings.append(title)
            }
            for (index, version) in section.versions.enumerated() {
                ids.append("v\(versions.count)")
                versions.append((version, index + 1 < section.versions.count ? section.versions[index + 1] : nil))
            }
        }
        chosenIndex = nil
        rows.replaceAll(with: ids)
        rowsScroller.isVisible = !ids.isEmpty
        emptyState.isVisible = versions.isEmpty
        if let first = versions.first { choose(first.version) } else { showChosen(nil) }
        window.present()
        ListsReport.versionsShown(count: versions.count, in: window)
    }


    func close() {
        onClose?()
        onClose = nil
        window.destroy()
    }

    /// Chooses `version`: its text is read and shown beside the current text.
    func choose(_ version: HistoryVersion) {
        chosenIndex = versions.firstIndex { $0.version == version }
        for (id, row) in rows.visibleRows where id.hasPrefix("v") { row.mark(chosen: row.version == chosenIndex) }
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
            chosenColumn.show("", origin: versions.isEmpty ? "" : tr("This version could not be read."))
            // TRANSLATORS: where the current text is from (the note as it is now)
            currentColumn.show(current ?? "", origin: tr("Now"))
            return
        }
        chosenColumn.show(chosen.text, origin: describe(chosen.version))
        guard let current else { return }
        currentColumn.show(current, origin: tr("Now, in the editor"))
        VersionColumn.highlightDifferences(chosenColumn, chosen.text, currentColumn, current)
        restore.isSensitive = canRestore && chosen.text != current
    }

    /// `row` shows the list's entry `id` ("h<n>": a heading, "v<n>": a version).
    private func fill(_ row: VersionRow, _ id: String) {
        guard let number = Int(id.dropFirst()) else { return }
        if id.hasPrefix("h") {
            if headings.indices.contains(number) { row.showHeading(headings[number]) }
            return
        }
        guard versions.indices.contains(number) else { return }
        let words = rowWords(number)
        row.showVersion(number, when: words.when, what: words.what, label: words.label,
                        tooltip: Self.exactDate(versions[number].version.date), chosen: number == chosenIndex)
    }

    /// A version row's two lines and what it reads aloud.
    private func rowWords(_ index: Int) -> (when: String, what: String, label: String) {
        let (version, older) = versions[index]
        let when = "\(timeFormatter.string(for: version.date)) · \(Self.timeOfDay(version.date))"
        let what = "\(Self.reason(version.origin)) · \(Self.sizeChange(version, older: older))"
        // TRANSLATORS: a version row read aloud: %1$s its date, %2$s why it was kept and its size change
        return (when, what, tr("%1$s, %2$s", when, what))
    }

    private func describe(_ version: HistoryVersion) -> String {
        "\(Self.reason(version.origin)) · \(Self.exactDate(version.date))"
    }

    /// The list rows (tests read them).
    var shownVersions: [HistoryVersion] { versions.map(\.version) }
    var shownTexts: (chosen: String, current: String) { (chosenColumn.buffer.text, currentColumn.buffer.text) }
    func chosenLineIsHighlighted(_ line: Int) -> Bool { chosenColumn.buffer.lineHasTag(ConflictWindow.highlightTag, line: line) }
    func rowLabel(_ index: Int) -> String { rowWords(index).label }

    var shownHeadings: [String] { headings }
    /// How many rows' widgets the list made (a test's figure).
    var rowsMade: Int { rows.rowsMade }

    // MARK: Wording

    /// A note's heading in every note's history, with what became of it as the disk says now
    /// (call it off the main thread): "(deleted)" when its file is gone — deleted for good by
    /// Notula, or by any other program while Notula looked away — "(not found)" when its
    /// folder is gone too (deleted with it, or on a disk not connected), "(in the Trash)" in
    /// the library's Trash. A file that cannot be looked at (no permission, a disk error) is
    /// not called deleted.
    nonisolated static func heading(for note: HistoryNote) -> String {
        // TRANSLATORS: a deleted note's title in the list of every note's versions
        guard let path = note.path else { return tr("%s (deleted)", note.title) }
        if FileSystem.lookUpError(path) == ENOENT {
            let folder = (path as NSString).deletingLastPathComponent
            if FileSystem.lookUpError(folder) == nil { return tr("%s (deleted)", note.title) }
            // TRANSLATORS: a note's title in the list of every note's versions: neither its file nor its folder is there (deleted, or on a disk not connected)
            return tr("%s (not found)", note.title)
        }
        // TRANSLATORS: a note's title in the list of every note's versions: it is in the Trash
        if path.contains("/.notula/Trash/") { return tr("%s (in the Trash)", note.title) }
        return note.title
    }

    /// Why a version was kept, as a list row says it.
    static func reason(_ origin: HistoryVersion.Origin) -> String {
        switch origin {
        // TRANSLATORS: why a version was kept: when the note was opened
        case .opened: return tr("Opened")
        // TRANSLATORS: why a version was kept: kept every few minutes while writing
        case .edited: return tr("While editing")
        // TRANSLATORS: why a version was kept: when the note was closed
        case .closed: return tr("Closed")
        // TRANSLATORS: why a version was kept: before the note went back to its saved text (Revert)
        case .beforeRevert: return tr("Before Revert")
        case .beforeReload: return tr("Before a change from elsewhere")
        case .beforeMerge: return tr("Before merging changes from elsewhere")
        case .beforeRestore: return tr("Before a restore")
        case .trashed: return tr("Moved to the Trash")
        case .restoredFromTrash: return tr("Restored from the Trash")
        case .otherVersion: return tr("Set aside: the other version in a conflict")
        case .replacedVersion: return tr("Set aside: this computer’s version in a conflict")
        // TRANSLATORS: why a version was kept: its text was discarded
        case .discarded: return tr("Discarded version")
        }
    }

    /// "+120 bytes", "−2.1 kB" against the version before it; the size for the oldest.
    static func sizeChange(_ version: HistoryVersion, older: HistoryVersion?) -> String {
        // TRANSLATORS: the size of a note's version with no text
        guard let older else { return version.size == 0 ? tr("empty") : size(Int64(version.size)) }
        let change = version.size - older.size
        // TRANSLATORS: a version's size did not change from the one before it
        if change == 0 { return tr("same size") }
        return (change > 0 ? "+" : "−") + size(Int64(abs(change)))
    }

    /// A size as ByteCountFormatter (file count style) writes it — "1 byte", "120 bytes",
    /// "12 KB", "1.2 MB" — with the words translated: the number is the formatter's, in the
    /// unit it would choose itself.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1000 { return trn("%d byte", "%d bytes", Int(bytes)) }
        let formatter = ByteCountFormatter()
        formatter.countStyle = .file
        formatter.includesUnit = false
        if bytes < 1_000_000 {
            formatter.allowedUnits = .useKB
            // TRANSLATORS: a size in kilobytes (1000 bytes); %s is the number ("12", "1,000")
            return tr("%s KB", formatter.string(fromByteCount: bytes))
        }
        if bytes < 1_000_000_000 {
            formatter.allowedUnits = .useMB
            // TRANSLATORS: a size in megabytes; %s is the number ("1.2")
            return tr("%s MB", formatter.string(fromByteCount: bytes))
        }
        if bytes < 1_000_000_000_000 {
            formatter.allowedUnits = .useGB
            // TRANSLATORS: a size in gigabytes; %s is the number ("1.23")
            return tr("%s GB", formatter.string(fromByteCount: bytes))
        }
        formatter.allowedUnits = .useTB
        // TRANSLATORS: a size in terabytes; %s is the number ("1.23")
        return tr("%s TB", formatter.string(fromByteCount: bytes))
    }

    static func timeOfDay(_ date: Date) -> String {
        formatter(Calendar.current.isDateInToday(date) ? "jmmss" : "dMMMjmm").string(from: date)
    }

    static func exactDate(_ date: Date) -> String {
        formatter("EEEEdMMMMyjmmss").string(from: date)
    }

    /// Made once per template and locale: rows are filled as they scroll into view.
    private static var formatters: [String: DateFormatter] = [:]

    private static func formatter(_ template: String) -> DateFormatter {
        let locale = Localization.locale
        let key = "\(locale.identifier) \(template)"
        if let known = formatters[key] { return known }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.setLocalizedDateFormatFromTemplate(template)
        formatters[key] = formatter
        return formatter
    }
}
