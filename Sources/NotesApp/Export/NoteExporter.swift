import Dispatch
import Foundation
import Gtk
import NotesCore

/// Print… (Ctrl+P), Export as HTML… and Export as PDF… for the note of a window's editor, and
/// Export Notebook as HTML… (issue #34). The note is printed and exported as the editor holds
/// it now, saved or not. Exported files are written atomically where the user chose (a PDF is
/// made in a private temporary file first); a failure is presented from the editor, and a
/// toast says where the file went.
final class NoteExporter {
    private let printAction = SimpleAction(name: "print")
    private let exportHTMLAction = SimpleAction(name: "export-html")
    private let exportPDFAction = SimpleAction(name: "export-pdf")
    /// Messages for the window's toast.
    var onNotice: ((String) -> Void)?

    private weak var window: ApplicationWindow?
    private let editor: EditorView
    /// The printer whose dialog is open (it answers later).
    private var printing: NotePrinter?
    /// The note's pictures are being decoded for Print.
    private var isPreparing = false
    /// Where the last export of this run went: the next chooser starts there.
    private static var lastFolder: String?

    init(window: ApplicationWindow, editor: EditorView) {
        self.window = window
        self.editor = editor
        printAction.onActivate { [weak self] _ in self?.printNote() }
        exportHTMLAction.onActivate { [weak self] _ in self?.exportNote(as: .html) }
        exportPDFAction.onActivate { [weak self] _ in self?.exportNote(as: .pdf) }
        for action in [printAction, exportHTMLAction, exportPDFAction] { window.add(action) }
    }

    /// Whether there is a note to print (the main window may show none).
    var isEnabled: Bool = true {
        didSet { for action in [printAction, exportHTMLAction, exportPDFAction] { action.isEnabled = isEnabled } }
    }

    nonisolated private struct NoteNow: Sendable {
        var title: String
        var text: String
        var location: NoteLocation?
        var printable: PrintableNote { PrintableNote(text: text, noteID: location?.noteID, library: location?.library) }
    }

    private var noteNow: NoteNow {
        let text = editor.text
        return NoteNow(title: NoteText.title(of: text), text: text, location: editor.noteLocation?())
    }

    // MARK: Print

    func printNote() {
        guard printing == nil, !isPreparing else { return }
        let note = noteNow
        isPreparing = true
        PrintPreparation.prepare({ note.printable }) { [weak self] printable, pictures in
            guard let self else { return }
            self.isPreparing = false
            self.runPrintDialog(note, NotePrinter(title: note.title, printable: printable, pictures: pictures))
        }
    }

    private func runPrintDialog(_ note: NoteNow, _ printer: NotePrinter) {
        printing = printer
        printer.runDialog(parent: window) { [weak self] outcome, pages in
            guard let self else { return }
            self.printing = nil
            switch outcome {
            case .printed: ExportReport.done("print", pages: pages, path: nil)
            case .cancelled: ExportReport.done("print-cancelled", pages: 0, path: nil)
            case .failed(let error):
                ExportReport.failed("print")
                self.presentFailure(error, action: .print, name: note.title, retry: { [weak self] in self?.printNote() })
            }
        }
    }

    // MARK: Export

    enum Format {
        case html, pdf

        var fileExtension: String { self == .html ? "html" : "pdf" }
    }

    func exportNote(as format: Format) {
        let note = noteNow
        // TRANSLATORS: file chooser title; %s is the note's title
        let title = format == .html ? tr("Export “%s” as HTML", note.title) : tr("Export “%s” as PDF", note.title)
        chooseFile(title: title, name: note.title, format: format) { [weak self] url in
            guard let self else { return }
            switch format {
            case .html:
                let library = note.location?.library ?? url.deletingLastPathComponent()
                let id = note.location?.noteID ?? "note.md"
                self.write(name: note.title, to: url, kind: "html", pages: 0, again: { [weak self] in self?.exportNote(as: format) }) {
                    (Data(NoteHTMLExport(library: library).document(for: .init(id: id, text: note.text)).utf8), unread: 0)
                }
            case .pdf:
                self.exportPDF(note, to: url)
            }
        }
    }

    /// The note as it is now, as a PDF at `url` (no chooser: `make bench`, see ExportReport).
    func exportPDF(to url: URL) { exportPDF(noteNow, to: url) }

    private func exportPDF(_ note: NoteNow, to url: URL) {
        PrintPreparation.prepare({ note.printable }) { [weak self] printable, pictures in
            self?.exportPDF(note, printable: printable, pictures: pictures, to: url)
        }
    }

    /// The notebook at `path` (its notebooks inside too) as one HTML file.
    func exportNotebook(_ path: String, library: URL) {
        let name = PathBytes.displayName((path as NSString).lastPathComponent)
        // TRANSLATORS: file chooser title; %s is the notebook's name
        chooseFile(title: tr("Export Notebook “%s” as HTML", name), name: name, format: .html) { [weak self] url in
            self?.write(name: name, to: url, kind: "notebook-html", pages: 0, again: { [weak self] in self?.exportNotebook(path, library: library) }) {
                let export = NoteHTMLExport(library: library)
                let (notes, unread) = export.notes(inNotebook: path)
                return (Data(export.document(notebook: name, notes: notes).utf8), unread: unread.count)
            }
        }
    }

    /// Several selected notes as one HTML page, in list order (as Export Notebook makes one).
    func exportNotes(_ ids: [String], library: URL) {
        // TRANSLATORS: the title (and file name) of the page of several notes exported together
        let name = tr("Notes")
        // TRANSLATORS: file chooser title; %d is how many notes
        chooseFile(title: trn("Export %d Note as HTML", "Export %d Notes as HTML", ids.count, ids.count), name: name, format: .html) { [weak self] url in
            self?.write(name: name, to: url, kind: "notes-html", pages: 0, again: { [weak self] in self?.exportNotes(ids, library: library) }) {
                let export = NoteHTMLExport(library: library)
                let (notes, unread) = export.notes(ids: ids)
                return (Data(export.document(notebook: name, notes: notes).utf8), unread: unread.count)
            }
        }
    }

    private func chooseFile(title: String, name: String, format: Format, then: @escaping (URL) -> Void) {
        let folder = Self.lastFolder ?? Self.documentsFolder
        let chooser = FileChooser.save(title: title, parent: window, suggestedName: Self.fileName(for: name, format: format), folder: folder)
        chooser.run { path in
            guard let path else { return }
            let url = URL(fileURLWithPath: path)
            Self.lastFolder = url.deletingLastPathComponent().path
            then(url)
        }
    }

    /// The user's Documents folder (XDG), or the home folder when there is none.
    private static var documentsFolder: String {
        FileBrowser.documentsFolder ?? ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    }

    /// A title as a file name: no slashes, no leading dot, not longer than a name may be.
    static func fileName(for title: String, format: Format) -> String {
        var name = title.replacingOccurrences(of: "/", with: "-").trimmingCharacters(in: .whitespaces)
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty { name = NoteText.untitled }
        while name.utf8.count > 200 { name.removeLast() }
        return name + "." + format.fileExtension
    }

    /// GTK draws the PDF on the main thread into a file in a private folder (0700, removed
    /// after); its bytes then go where the user chose the same atomic way as every other file.
    private func exportPDF(_ note: NoteNow, printable: PrintableNote, pictures: [String: DecodedImage], to url: URL) {
        let again: @MainActor () -> Void = { [weak self] in self?.exportNote(as: .pdf) }
        let pdf: Data
        var pages = 0
        do {
            let folder = try PrivateTemporaryFolder(prefix: "notula-export")
            defer { folder.remove() }
            let temporary = folder.url.appendingPathComponent("export.pdf")
            let outcome: PrintOperation.Outcome
            (outcome, pages) = NotePrinter(title: note.title, printable: printable, pictures: pictures).exportPDF(to: temporary.path)
            if case .failed(let error) = outcome { throw error }
            pdf = try RegularFile.read(temporary).data
        } catch {
            ExportReport.failed("pdf")
            presentFailure(error, action: .export, name: note.title, retry: { [weak self] in self?.exportPDF(note, printable: printable, pictures: pictures, to: url) }, again: again)
            return
        }
        write(name: note.title, to: url, kind: "pdf", pages: pages, again: again) { (pdf, unread: 0) }
    }

    /// Makes the bytes off the main thread (notes and pictures are read) and writes them
    /// atomically; the toast also says how many notes could not be read, if any. `again`
    /// starts the export over (Choose Another Place…).
    private func write(name: String, to url: URL, kind: String, pages: Int, again: @escaping @MainActor () -> Void,
                       bytes: @escaping @Sendable () throws -> (Data, unread: Int)) {
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { () throws -> Int in
                let (data, unread) = try bytes()
                try AtomicFileWriter.write(data, to: url, newFileMode: AtomicFileWriter.userDocumentMode)
                return unread
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let unread):
                    ExportReport.done(kind, pages: pages, path: url.path)
                    if unread > 0 {
                        // TRANSLATORS: a toast after a notebook's export; %1$s: the file's name, %2$d: notes left out
                        self.onNotice?(trn("Exported to “%1$s”; %2$d note could not be read", "Exported to “%1$s”; %2$d notes could not be read",
                                           unread, url.lastPathComponent, unread))
                    } else {
                        // TRANSLATORS: a toast after an export; %s is the exported file's name
                        self.onNotice?(tr("Exported to “%s”", url.lastPathComponent))
                    }
                case .failure(let error):
                    ExportReport.failed(kind)
                    self.presentFailure(error, action: .export, name: name, retry: { [weak self] in
                        self?.write(name: name, to: url, kind: kind, pages: pages, again: again, bytes: bytes)
                    }, again: again)
                }
            }
        }
    }

    /// Why the note could not be printed or its file written, with Choose Another Place… (the
    /// export's chooser again, when `again` is given), Try Again and Cancel. The note itself is
    /// untouched, so a `RecoverableFailure` (not an `OperationError`) keeps the open note's own
    /// options out.
    private func presentFailure(_ error: Error, action: OperationError.Action, name: String, retry: @escaping @MainActor () -> Void,
                                again: (@MainActor () -> Void)? = nil) {
        let explanation = ErrorTranslator.explain(OperationError(action, note: name, underlying: error))
        var choseAnotherPlace = false
        var actions = [RecoveryAction(tr("Try Again"), role: again == nil ? .default : .normal) { $0(true) }, .cancel()]
        if again != nil {
            // TRANSLATORS: a button of the dialog saying an export failed: opens the file chooser again
            actions.insert(RecoveryAction(tr("Choose Another Place…"), role: .default) { done in
                choseAnotherPlace = true
                done(true)
            }, at: 0)
        }
        let failure = RecoverableFailure(failureReason: explanation.failureReason, recoverySuggestion: explanation.recoverySuggestion,
                                         actions: actions, underlyingError: error)
        editor.presentError(failure) { recovered in
            guard recovered else { return }
            if choseAnotherPlace, let again { again() } else { retry() }
        }
    }
}
