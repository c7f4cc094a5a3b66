import Dispatch
import Foundation
import Gtk
import NotesCore

/// Adds pictures and files to the shown note: a pasted picture or files copied in a file
/// manager and pasted (`EditorPaste` reads the clipboard), files dropped on the text,
/// and Insert ▸ Picture or File…. Each file is copied (never moved) into the library's
/// `attachments/` folder off the main thread (`AttachmentStore`); then one link per file,
/// each on its own line, goes in where the user asked — a text mark, so typing meanwhile
/// moves it — as one edit Ctrl+Z takes back. All or nothing: a failure removes the copies
/// already made and is said by the error chain; a note left (or made read-only) before the
/// copies end is not edited, and the copies are removed (never an unlinked file).
final class AttachmentInserter {
    /// What the user gives: a file to copy, or bytes (a pasted picture) with a name to use.
    enum Source: Sendable {
        case file(URL)
        case bytes(Data, name: String)

        var displayName: String {
            switch self {
            case .file(let url): return url.lastPathComponent
            case .bytes(_, let name): return name
            }
        }
    }

    private weak var editor: EditorView?
    /// A brief notice in the window (a toast): "Adding …", a note left before the copy ended.
    var onNotice: ((String) -> Void)?
    /// Copies still under way (tests wait for them).
    private(set) var pending = 0
    private var running: Set<Int> = []
    private var nextAddition = 0
    /// Called when an addition ended, inserted or not (tests).
    var onFinished: (() -> Void)?
    /// How long a copy runs before the window says it is adding the files.
    var slowCopyNotice: TimeInterval = 0.6
    /// Copies run here, one at a time (tests hold it to leave a note meanwhile).
    let queue = DispatchQueue(label: "notula.attachments", qos: .userInitiated)

    init(editor: EditorView) {
        self.editor = editor
        editor.textView.acceptDroppedFiles { [weak self] paths, _, x, y in
            guard let self, let editor = self.editor, !paths.isEmpty else { return false }
            let offset = editor.textView.nearestOffset(atViewPoint: x, y)
            return self.add(paths.map { .file(URL(fileURLWithPath: $0)) }, at: offset)
        }
    }

    /// Insert ▸ Picture or File…: the files the user picks go in at the cursor.
    func chooseFiles(parent: Window?) {
        guard let editor, editor.isShowingNote else { return }
        guard editor.isEditable else { return refuseReadOnly() }
        // TRANSLATORS: the title of the file chooser of Insert ▸ Picture or File…
        FileChooser.openFiles(title: tr("Insert Picture or File"), parent: parent, folder: nil).runForFiles { [weak self] paths in
            guard let self, let editor = self.editor, !paths.isEmpty else { return }
            self.add(paths.map { .file(URL(fileURLWithPath: $0)) }, at: editor.buffer.cursorOffset)
        }
    }

    /// Copies `sources` into the library and links them at `offset` of the shown note.
    /// False when nothing can be added (no note shown, read-only).
    @discardableResult
    func add(_ sources: [Source], at offset: Int) -> Bool {
        guard let editor, !sources.isEmpty, editor.isShowingNote, let location = editor.noteLocation?() else { return false }
        guard editor.isEditable else {
            refuseReadOnly()
            return false
        }
        let mark = editor.buffer.addMark(atOffset: offset)
        let shown = editor.shownNoteSerial
        let store = AttachmentStore(library: location.library)
        pending += 1
        nextAddition += 1
        let addition = nextAddition
        running.insert(addition)
        let first = sources[0].displayName
        DispatchQueue.main.asyncAfter(deadline: .now() + slowCopyNotice) { [weak self] in
            guard let self, self.running.contains(addition) else { return }
            self.onNotice?(sources.count == 1
                // TRANSLATORS: a toast while a file is copied into the notes folder; %s is its name.
                ? tr("Adding “%s”…", first)
                // TRANSLATORS: a toast while files are copied into the notes folder.
                : trn("Adding %d file…", "Adding %d files…", sources.count, sources.count))
        }
        queue.async { [weak self] in
            let outcome = Self.copy(sources, into: store)
            DispatchQueue.main.async {
                self?.running.remove(addition)
                self?.finish(outcome, of: sources, mark: mark, shown: shown, store: store)
            }
        }
        return true
    }

    /// Copies every source, or none: after a failure the copies made are removed.
    private nonisolated static func copy(_ sources: [Source], into store: AttachmentStore) -> Result<[String], Error> {
        var added: [String] = []
        do {
            for source in sources {
                switch source {
                case .file(let url): added.append(try store.add(copyOf: url))
                case .bytes(let data, let name): added.append(try store.add(data, suggestedName: name))
                }
            }
            return .success(added)
        } catch {
            remove(added, from: store)
            return .failure(error)
        }
    }

    private nonisolated static func remove(_ paths: [String], from store: AttachmentStore) {
        for path in paths { try? FileSystem.removeTree(store.library.appendingPathComponent(path).path) }
    }

    private func finish(_ outcome: Result<[String], Error>, of sources: [Source], mark: TextMark, shown: Int, store: AttachmentStore) {
        defer {
            pending -= 1
            onFinished?()
        }
        guard let editor else { return }
        let offset = editor.buffer.offset(of: mark)
        editor.buffer.deleteMark(mark)
        let first = sources[0].displayName
        let paths: [String]
        switch outcome {
        case .failure(let error):
            // Try Again copies them all again, into the same note at the same place (after
            // the user freed space, say) while that note is still shown.
            let failure = OperationError(.addAttachment, note: sources.count == 1 ? first : nil, underlying: error)
            let explanation = ErrorTranslator.explain(failure)
            let recoverable = RecoverableFailure(failureReason: explanation.failureReason, recoverySuggestion: explanation.recoverySuggestion,
                                                 actions: explanation.kind == .notAFile ? [.cancel()] : [.retry(), .cancel()],
                                                 underlyingError: failure)
            editor.presentError(recoverable) { [weak self, weak editor] recovered in
                guard recovered, let self, let editor, editor.shownNoteSerial == shown, let offset else { return }
                self.add(sources, at: min(offset, editor.buffer.characterCount))
            }
            return
        case .success(let added):
            paths = added
        }
        guard let offset, editor.shownNoteSerial == shown, editor.isShowingNote, let location = editor.noteLocation?(),
              location.library == store.library, editor.isEditable else {
            queue.async { Self.remove(paths, from: store) }
            // TRANSLATORS: a toast: a file was being copied for a note the user left (or that became read-only) meanwhile.
            onNotice?(tr("“%s” was not added: its note was closed or cannot be changed.", first))
            return
        }
        let links = paths.map { AttachmentLink.markdown(forAttachment: $0, in: location) }
        let text = Self.ownLines(links.joined(separator: "\n"), before: offset > 0 ? editor.buffer.character(at: offset - 1) : nil,
                                 after: editor.buffer.character(at: offset))
        editor.buffer.replace(offset..<offset, with: text)
        editor.buffer.cursorOffset = offset + text.unicodeScalars.count
        editor.textView.scrollToCursor()
    }

    /// `links` on lines of their own: a line break before when the place is mid-line, after
    /// when text follows on the line.
    static func ownLines(_ links: String, before: Unicode.Scalar?, after: Unicode.Scalar?) -> String {
        (before == nil || before == "\n" ? "" : "\n") + links + (after == nil || after == "\n" ? "" : "\n")
    }

    private func refuseReadOnly() {
        guard let editor else { return }
        editor.presentError(DocumentError.readOnly(note: NoteText.title(of: editor.leadingText))) { _ in }
    }
}
