import Dispatch
import Foundation
import Synchronization
import Gtk
import NotesCore

/// Main Menu ▸ Import Notes… (issue #34): the notes of Gnote, Tomboy or tomboy-ng found on
/// this computer, or any folder (of `.note` files, or of Markdown and text files), imported
/// off the main thread with progress and Cancel, then a report — how many, and each note
/// skipped or imported only as far as it could be read, with why; notes an earlier import of
/// the same source brought in are skipped and counted (`ImportJournal`). At the first start that
/// finds such notes, a notice in the window offers them once ("Import 312 notes from Gnote?").
/// The sources are only read (`NoteImport`, `MarkdownFolderImport`).
final class ImportController {
    weak var window: MainWindow?
    private let dataHome: URL
    private var isRunning = false

    init(dataHome: URL) {
        self.dataHome = dataHome
    }

    /// The first start that finds another app's notes offers them, once (`Preferences.importOffered`).
    func offerOnce(storage: StorageController) {
        guard storage.preferences.importOffered != true else { return }
        let dataHome = self.dataHome
        DispatchQueue.global(qos: .utility).async {
            let sources = NoteImport.knownSources(dataHome: dataHome)
            DispatchQueue.main.async { [weak self] in
                guard let self, let source = sources.first, let window = self.window else { return }
                storage.updatePreferences { $0.importOffered = true }
                // TRANSLATORS: a notice in the window at the first start; %1$d: how many notes, %2$s: the app ("Gnote")
                let question = trn("Import %1$d note from %2$s?", "Import %1$d notes from %2$s?", source.noteCount, source.noteCount, source.app)
                // TRANSLATORS: the button of the notice offering another app's notes
                window.notice.show(question, action: (tr("Import"), { [weak self] in self?.importNotes(of: source) }))
            }
        }
    }

    /// Asks where from: each app whose notes were found, or a folder.
    func chooseSource() {
        guard let window, !isRunning else { return }
        let sources = NoteImport.knownSources(dataHome: dataHome)
        let dialog = MessageDialog(parent: window.window, text: tr("Import Notes"),
                                   secondaryText: tr("Notes of another app, or a folder of Markdown or text files, become notes here. The originals are only read, never changed."))
        dialog.addButton(tr("Cancel"), response: 0)
        // TRANSLATORS: a button of Import Notes: choose a folder to import
        dialog.addButton(tr("Choose Folder…"), response: 1)
        for (index, source) in sources.enumerated() {
            // TRANSLATORS: a button of Import Notes; %1$s: the app ("Gnote"), %2$d: how many notes
            dialog.addButton(trn("From %1$s (%2$d note)", "From %1$s (%2$d notes)", source.noteCount, source.app, source.noteCount),
                             response: 2 + index, role: index == 0 ? .suggested : .normal)
        }
        dialog.setDefaultResponse(sources.isEmpty ? 1 : 2)
        dialog.onResponse { [weak self] dialog, response in
            dialog.destroy()
            switch response {
            case 1: self?.chooseFolder()
            case 2...: if sources.indices.contains(response - 2) { self?.importNotes(of: sources[response - 2]) }
            default: break
            }
        }
        dialog.present()
    }

    private func chooseFolder() {
        guard let window else { return }
        let chooser = FileChooser.selectFolder(title: tr("Import Notes from a Folder"), parent: window.window,
                                               folder: ProcessInfo.processInfo.environment["HOME"])
        chooser.run { [weak self] path in
            guard let self, let path else { return }
            self.importFolder(URL(fileURLWithPath: path, isDirectory: true))
        }
    }

    func importNotes(of source: NoteImport.Source) {
        importFolder(source.folder, app: source.app)
    }

    /// A folder of `.note` files is imported as Tomboy notes, any other as Markdown and text files.
    func importFolder(_ folder: URL, app: String? = nil) {
        guard let window, !isRunning else { return }
        let library = window.controller.library.folder
        isRunning = true
        let cancelled = Atomic(false)
        let progress = MoveProgressDialog(parent: window.window, message: tr("Importing the notes of “%s”…", folder.path),
                                          title: tr("Importing Notes"), progressLabel: tr("Importing notes"))
        progress.onCancel = { cancelled.store(true, ordering: .relaxed) }
        progress.show()
        let step: @Sendable (Int, Int) -> Bool = { done, total in
            DispatchQueue.main.async { progress.update(done: done, total: total) }
            return !cancelled.load(ordering: .relaxed)
        }
        // On the library's writer queue: a move of every note never runs beside an import.
        window.controller.io.async {
            let tomboy = NoteImport.noteFiles(in: folder)
            let report: NoteImport.Report
            if !tomboy.isEmpty {
                report = NoteImport.run(tomboy, into: library, progress: step)
            } else {
                report = MarkdownFolderImport.run(MarkdownFolderImport.noteFiles(in: folder), from: folder, into: library, progress: step)
            }
            DispatchQueue.main.async { [weak self] in
                progress.close()
                self?.isRunning = false
                self?.finished(report, from: app ?? folder.lastPathComponent)
            }
        }
    }

    private func finished(_ report: NoteImport.Report, from source: String) {
        ImportReport.finished(report)
        guard let window else { return }
        window.controller.live.rescan()  // the notebooks made, the notes written
        let text = report.items.isEmpty && !report.wasCancelled
            ? tr("No notes were found there.")
            // TRANSLATORS: the title of the import's report; %1$d: notes imported, %2$s: where from ("Gnote", a folder's name)
            : trn("%1$d note imported from %2$s", "%1$d notes imported from %2$s", report.imported.count, report.imported.count, source)
        let dialog = MessageDialog(parent: window.window, text: text, secondaryText: Self.details(of: report))
        dialog.addButton(tr("OK"), response: 0, role: .suggested)
        dialog.onResponse { dialog, _ in dialog.destroy() }
        dialog.present()
    }

    /// The report's lines: what was skipped or only partly read, and why (at most 12, then how many more).
    static func details(of report: NoteImport.Report) -> String? {
        var lines: [String] = []
        if report.wasCancelled { lines.append(tr("The import was cancelled; the notes imported until then stay.")) }
        let templates = report.items.filter { $0.outcome == .skippedTemplate }.count
        if templates > 0 {
            // TRANSLATORS: in the import's report: Tomboy/Gnote templates are not imported
            lines.append(trn("%d template was skipped.", "%d templates were skipped.", templates, templates))
        }
        let earlier = report.items.filter { $0.outcome == .alreadyImported }.count
        if earlier > 0 {
            // TRANSLATORS: in the import's report: notes an earlier import of the same source brought in are skipped
            lines.append(trn("%d note was already imported.", "%d notes were already imported.", earlier, earlier))
        }
        var entries: [String] = []
        for item in report.items {
            switch item.outcome {
            case .imported, .skippedTemplate, .alreadyImported: break
            case .skippedUnreadable(let reason), .failed(let reason):
                // TRANSLATORS: in the import's report; %1$s: a file's name, %2$s: why
                entries.append(tr("“%1$s” was not imported: %2$s", item.file, reason))
            case .importedWithProblems(let problems):
                // TRANSLATORS: in the import's report; %1$s: a note's title, %2$s: what could not be read
                entries.append(tr("“%1$s” was imported as far as it could be read: %2$s", item.title,
                                  problems.map(describe).joined(separator: "; ")))
            }
        }
        lines += entries.prefix(12)
        if entries.count > 12 {
            // TRANSLATORS: the end of a shortened list in the import's report
            lines.append(trn("… and %d more.", "… and %d more.", entries.count - 12, entries.count - 12))
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    private static func describe(_ problem: TomboyNote.Problem) -> String {
        switch problem {
        case .notUTF8: return tr("bytes that are not UTF-8 text became “�”")
        // TRANSLATORS: in the import's report: the note file is cut short or damaged from this line on
        case .malformed(let line, _): return tr("the file breaks off or is damaged at line %d", line)
        // TRANSLATORS: in the import's report; %s: the names of formatting tags Notula does not know
        case .unknownTags(let tags): return tr("formatting Notula does not know (%s) became plain text", tags.joined(separator: ", "))
        case .noContent: return tr("it holds no text")
        }
    }
}
