import Foundation
import Gtk
import NotesCore

/// The one owner of the open notes, in the main window and in note windows of their own:
/// one `NoteDocument` per file, shared — one autosave, one status light, one set of
/// conflicts — with each editor holding the same text. The editor typed in last is the
/// document's `contentProvider`; the others take its text at once (only the lines that
/// changed, as a reload: their cursors and views stay, their undo history starts again).
/// At once, not coalesced: a keystroke in the other window a moment later must land on the
/// text as it is, never be overwritten by it. A move of every note holds them all
/// (`holdForMove`, `releaseAfterMove`).
final class SharedDocuments {
    static let shared = SharedDocuments()

    private final class Entry {
        let document: NoteDocument
        var editors: [Weak] = []
        /// The editor typed in last (the document's text comes from it).
        weak var source: OpenNoteController?
        /// While the first editor's open reads the file: editors asking meanwhile wait here.
        var waiting: [@MainActor (Bool) -> Void]?
        init(document: NoteDocument) { self.document = document }
        var controllers: [OpenNoteController] { editors.compactMap(\.controller) }
    }
    private struct Weak { weak var controller: OpenNoteController? }
    /// By document; a document's file may move (notebooks, all notes moving) while shared.
    private var entries: [ObjectIdentifier: Entry] = [:]

    /// The document an editor has open for `url`, if any.
    func document(for url: URL) -> NoteDocument? {
        let path = url.standardizedFileURL.path
        return entries.values.first { $0.document.fileURL.standardizedFileURL.path == path }?.document
    }

    /// `document` is being opened (its file read): another editor asking for the same file
    /// meanwhile waits for it (`whenOpened`) instead of opening a second document.
    func beginOpening(_ document: NoteDocument) {
        let entry = Entry(document: document)
        entry.waiting = []
        entries[ObjectIdentifier(document)] = entry
    }

    /// The open ended (`opened` false: it failed, the document is not shown anywhere).
    func finishOpening(_ document: NoteDocument, opened: Bool) {
        guard let entry = entries[ObjectIdentifier(document)] else { return }
        let waiting = entry.waiting ?? []
        entry.waiting = nil
        if !opened, entry.controllers.isEmpty { entries[ObjectIdentifier(document)] = nil }
        for body in waiting { body(opened) }
    }

    /// Whether an editor waits for `document` to open.
    func hasWaiting(_ document: NoteDocument) -> Bool {
        !(entries[ObjectIdentifier(document)]?.waiting?.isEmpty ?? true)
    }

    /// Runs `body` once `document` is open (now, if it is), with whether it opened.
    func whenOpened(_ document: NoteDocument, _ body: @escaping @MainActor (Bool) -> Void) {
        guard let entry = entries[ObjectIdentifier(document)], entry.waiting != nil else { return body(true) }
        entry.waiting?.append(body)
    }

    /// `controller`'s editor shows `document` from now.
    func join(_ document: NoteDocument, _ controller: OpenNoteController) {
        let entry = entries[ObjectIdentifier(document)] ?? Entry(document: document)
        entry.editors.removeAll { $0.controller == nil || $0.controller === controller }
        entry.editors.append(Weak(controller: controller))
        if entry.source == nil { entry.source = controller }
        entries[ObjectIdentifier(document)] = entry
    }

    /// The document's text as its editors hold it now (the one typed in last, else any still
    /// there; with none, the document's last known text).
    func currentText(of document: NoteDocument) -> String {
        guard let entry = entries[ObjectIdentifier(document)] else { return document.text }
        return (entry.source ?? entry.controllers.first)?.editor.text ?? document.text
    }

    /// The text every open note's editors hold now, by its id in `library` (removing
    /// attachments counts them: a picture pasted a moment ago is linked before it is saved).
    func openTexts(in library: URL) -> [String: String] {
        let root = library.standardizedFileURL.path + "/"
        var texts: [String: String] = [:]
        for entry in entries.values {
            let path = entry.document.fileURL.standardizedFileURL.path
            if path.hasPrefix(root) { texts[String(path.dropFirst(root.count))] = currentText(of: entry.document) }
        }
        return texts
    }

    /// How many editors show `document`.
    func editorCount(of document: NoteDocument) -> Int {
        editors(of: document).count
    }

    /// The editors that show `document`.
    func editors(of document: NoteDocument) -> [OpenNoteController] {
        entries[ObjectIdentifier(document)]?.controllers ?? []
    }

    /// `controller` stopped showing `document`: true when others still do (the document stays
    /// open, its text now read from one of them).
    func leave(_ document: NoteDocument, _ controller: OpenNoteController) -> Bool {
        guard let entry = entries[ObjectIdentifier(document)] else { return false }
        entry.editors.removeAll { $0.controller == nil || $0.controller === controller }
        guard let next = entry.controllers.first else {
            entries[ObjectIdentifier(document)] = nil
            return false
        }
        if entry.source == nil || entry.source === controller {
            entry.source = next
            next.takeOver(document)
        }
        return true
    }

    /// `controller`'s editor changed the text: it is the document's source now, and the other
    /// editors take its text.
    func edited(_ document: NoteDocument, by controller: OpenNoteController) {
        guard let entry = entries[ObjectIdentifier(document)] else { return }
        if entry.source !== controller {
            entry.source = controller
            controller.takeOver(document)
        }
        if entry.controllers.count > 1 { copySourceText(entry) }
    }

    private func copySourceText(_ entry: Entry) {
        guard let source = entry.source else { return }
        let text = source.editor.text
        for other in entry.controllers where other !== source { other.editor.replaceText(text) }
    }

    // MARK: Moving with the library

    /// A move of every note begins: every document an editor shows (the main window's and
    /// every note window's) stops taking typing at once — its light says "Moving…" — and is
    /// saved without blocking the main thread, then held still. `done` gets the documents
    /// held, or the first that could not be saved and why (then none is held).
    func holdForMove(_ done: @escaping @MainActor (Result<[NoteDocument], MoveHoldFailure>) -> Void) {
        let open = entries.values.filter { !$0.controllers.isEmpty && !$0.document.state.contains(.closed) }.map(\.document)
        var held: [NoteDocument] = []
        var failure: MoveHoldFailure?
        var waiting = open.count
        guard waiting > 0 else { return done(.success([])) }
        for document in open {
            document.beginMove { error in
                if let error {
                    failure = failure ?? MoveHoldFailure(document: document, error: error)
                } else {
                    held.append(document)
                }
                waiting -= 1
                guard waiting == 0 else { return }
                if let failure {
                    for document in held { document.endMove(at: nil) }
                    done(.failure(failure))
                } else {
                    done(.success(held))
                }
            }
        }
    }

    /// The move ended: each held document now lives under `newFolder` (at its new path if the
    /// move `renamed` it: paths in the library, old → new), or stays where it was (nil: the
    /// move did not happen). Each compares its moved file with what it last saved — another
    /// program's edits made meanwhile are shown or become a conflict — and takes typing again;
    /// its editors read its pictures again, and failures met while nobody could be asked are
    /// said once.
    func releaseAfterMove(_ held: [NoteDocument], from oldFolder: URL, to newFolder: URL?, renamed: [String: String] = [:]) {
        let oldRoot = oldFolder.standardizedFileURL.path + "/"
        for document in held {
            let path = document.fileURL.standardizedFileURL.path
            var newURL: URL?
            if let newFolder, path.hasPrefix(oldRoot) {
                let relative = String(path.dropFirst(oldRoot.count))
                newURL = newFolder.appendingPathComponent(renamed[relative] ?? relative)
            }
            document.endMove(at: newURL)
            var said = Set<String>()
            let errors = document.takeDeferredErrors().filter { said.insert("\($0)").inserted }
            for (index, editor) in editors(of: document).enumerated() { editor.noteMoved(saying: index == 0 ? errors : []) }
        }
    }
}
