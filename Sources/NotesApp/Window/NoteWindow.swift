import Foundation
import Gtk
import NotesCore

/// One note in a window of its own (Open in New Window, or `notula FILE.md` for a Markdown file
/// outside the library, saved in place): the editor with the note's status light and menu.
/// The same note open in the main window too shares one document with it (`SharedDocuments`).
/// In the error chain it owns its window; its next responder is the application.
final class NoteWindow: Responder {
    let window: ApplicationWindow
    let editor = EditorView()
    let status = StatusLight()
    let openNote: OpenNoteController
    let url: URL
    private weak var application: Responder?
    private let actions: WindowActions
    /// Show in Main Window, or a link to another note opened: the main window shows that note.
    var onShowInMainWindow: ((URL) -> Void)?
    /// Its file was gone before it could be read (deleted meanwhile).
    var onNoteGone: ((URL) -> Void)?
    /// A `[[Title#heading]]` was opened: the main window finds the note (or offers to create
    /// it) and shows it at the heading.
    var onOpenTitle: ((String, _ heading: String?) -> Void)?
    /// The library's index, for `[[` completion and missing links (notes of the library only).
    let links = LinkLookup()
    private let exporter: NoteExporter
    private var closer: WindowCloser!

    /// `library`: the library folder when the note is one of its notes, else nil.
    init(application: Application, appResponder: Responder, url: URL, library: URL?, drafts: RecoveryDrafts,
         size: (width: Int, height: Int)? = nil) {
        self.url = url
        self.application = appResponder
        window = ApplicationWindow(application: application)
        window.title = url.deletingPathExtension().lastPathComponent
        openNote = OpenNoteController(editor: editor, status: status, drafts: drafts)
        exporter = NoteExporter(window: window, editor: editor)
        actions = WindowActions(window: window)
        InputReport.watch(window)
        super.init()
        window.owner = self
        openNote.window = window
        window.titlebar = WindowHeader.make(for: library != nil ? [.note, .libraryNote] : .note, status: status)
        window.child = openNote.pane
        let screen = Window.largestScreenSize ?? (800, 600)
        window.setDefaultSize(width: min(size?.width ?? 560, screen.width), height: min(size?.height ?? 640, screen.height))
        let folder = library ?? url.deletingLastPathComponent()
        let id = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
        editor.noteLocation = { NoteLocation(library: folder, noteID: id) }
        editor.links.parentWindow = { [weak self] in self?.window }
        editor.links.onOpenNote = { [weak self] id, _ in self?.onShowInMainWindow?(folder.appendingPathComponent(id)) }
        if library != nil { wireNoteLinks() }
        openNote.delegate = self
        editor.attachments.onNotice = { [weak self] message in self?.editor.setBanner(message) }
        wireActions()
        // TRANSLATORS: button: close a note's window although the note could not be saved
        closer = WindowCloser(window: window, openNote: openNote, responder: self, anywayLabel: tr("Close Anyway")) { [weak openNote] done in
            openNote?.saveThen(done) ?? done(nil)
        }
        window.onCloseRequest { [weak self] _ in self?.closer.closeRequested() ?? false }
        openNote.open(url) { [weak self] in
            guard let self, let document = self.openNote.document else { return }
            self.window.title = document.displayName
            self.editor.focusText()  // a note's own window is for writing in it
            DesktopReport.noteWindow(url.path)
        }
    }

    /// `[[links]]` as in the main window: completion, missing titles marked, Ctrl+click.
    private func wireNoteLinks() {
        editor.noteLinks.onOpenTitle = { [weak self] title, heading, _, _ in self?.onOpenTitle?(title, heading) }
        editor.noteLinks.existingTitles = { [weak self] keys, answer in
            self?.links.ask("existing", { $0.existingTitles(keys) }, answer: answer)
        }
        editor.completion.suggestTitles = { [weak self] typed, answer in
            self?.links.ask("titles", { $0.titles(matching: typed) }) { answer($0.map(\.title)) }
        }
    }

    private func wireActions() {
        actions.add("show-in-main-window") { [weak self] in
            guard let self else { return }
            self.onShowInMainWindow?(self.url)
        }
        actions.addFinding(in: editor) { [weak self] in self?.editor.findBar.open(replacing: false) }
        // No toast in a note's window: the editor's banner says where the file went.
        exporter.onNotice = { [weak self] message in
            self?.editor.setBanner(message, action: (tr("Close"), { [weak self] in self?.editor.setBanner(nil) }))
        }
    }

    func present() { window.present() }

    /// The file this window shows now (a note moved by another window keeps its window).
    var fileURL: URL { openNote.document?.fileURL ?? url }

    /// Saves and closes without asking (quitting at logout): text that could not be written
    /// stays in a recovery draft.
    func closeWithoutAsking(then done: @escaping @MainActor () -> Void) {
        closer.closeWithoutAsking(then: done)
    }

    override var nextResponder: Responder? { application }
}

extension NoteWindow: OpenNoteDelegate {
    func openNote(_ openNote: OpenNoteController, changed document: NoteDocument, leadingText: String) {
        window.title = document.displayName
    }

    func openNote(_ openNote: OpenNoteController, notice: String) { editor.setBanner(notice) }

    func openNote(_ openNote: OpenNoteController, noteGone url: URL) { onNoteGone?(url) }
}
