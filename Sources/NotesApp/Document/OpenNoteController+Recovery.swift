import Dispatch
import Foundation
import Gtk
import NotesCore

/// The ways out of the open note's failures: every option does what it says.
extension OpenNoteController {
    /// A window could not be closed because its note could not be saved: Keep Editing, Save a
    /// Copy…, or close anyway (`anyway`: "Quit Anyway", "Close Anyway") — which loses nothing
    /// either: the text is in a recovery draft and the next start offers it back.
    func closingFailure(_ error: Error, anyway label: String, then closeAnyway: @escaping @MainActor () -> Void) -> RecoverableFailure {
        let explanation = ErrorTranslator.explain(error, action: .quit, note: document?.displayName)
        // TRANSLATORS: button: stay in the note instead of quitting (or closing the window)
        var actions: [RecoveryAction] = [.cancel(tr("Keep Editing"))]
        if let document { actions.append(saveCopy(of: document)) }
        actions.append(RecoveryAction(label, role: .destructive) { done in
            closeAnyway()
            done(false)
        })
        return RecoverableFailure(
            failureReason: explanation.failureReason,
            recoverySuggestion: explanation.recoverySuggestion
                + " " + tr("If you quit anyway, your text stays in a recovery draft and Notula offers it back next time."),
            actions: actions, underlyingError: error)
    }

    func recoverableError(for failure: OperationError, document: NoteDocument) -> RecoverableFailure {
        let note = failure.note ?? document.displayName
        let explanation = ErrorTranslator.explain(failure.underlying, action: failure.action, note: note)
        let actions: [RecoveryAction]
        switch (failure.action, explanation.kind) {
        case (_, .conflict):
            actions = [RecoveryAction(tr("Show Conflicts"), role: .default) { [weak self] done in self?.showConflicts(); done(false) },
                       .cancel(tr("Keep Editing"))]
        case (_, .fileMissing):
            // TRANSLATORS: button: write the note's file again (it was deleted or moved)
            actions = [RecoveryAction(tr("Save Again"), role: .default) { [weak document] done in
                           document?.saveAgain { _ in done(false) } ?? done(false) },
                       saveCopy(of: document), .cancel(tr("Keep Editing"))]
        case (.open, .notAFile), (.reload, .notAFile):
            // A FIFO, a device, a folder: trying again cannot make it a note.
            actions = [showInFiles(document.fileURL), .cancel()]
        case (.open, _), (.reload, _):
            actions = [.retry(), showInFiles(document.fileURL), .cancel()]
        case (.chooseLanguage, _):
            // Not the note's text: nothing of it to save or revert (choosing again retries).
            actions = []
        case (.revert, _):
            actions = [.retry(), .cancel()]
        default:  // save, autosave, quit
            var options = [RecoveryAction.retry(), saveCopy(of: document)]
            if FileSystem.exists(document.fileURL.path) {
                options.append(RecoveryAction(tr("Revert to Saved"), role: .destructive) { [weak document] done in
                    document?.revert { _ in done(false) } ?? done(false)
                })
            }
            actions = options + [.cancel(tr("Keep Editing"))]
        }
        return RecoverableFailure(failureReason: explanation.failureReason, recoverySuggestion: explanation.recoverySuggestion,
                                actions: actions, underlyingError: failure)
    }

    /// "Save a Copy…": the file chooser, then the text written there (atomically).
    func saveCopy(of document: NoteDocument) -> RecoveryAction {
        // The document is held (not weakly) while the dialog offers this: it may have been
        // closed meanwhile, as the user switched notes, and its words still need a place.
        RecoveryAction(tr("Save a Copy…")) { [weak self] done in
            guard let self else { return done(false) }
            let text = document.contentProvider?() ?? document.text
            let name = document.displayName, encoding = document.encoding
            // TRANSLATORS: file chooser title; %s is the note's title
            let chooser = FileChooser.save(title: tr("Save a Copy of “%s”", name), parent: self.window,
                                          suggestedName: "\(name).md", folder: ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory())
            chooser.run { [weak self] path in
                guard let path else { return done(false) }
                DispatchQueue.global(qos: .userInitiated).async { [weak self] in
                    let result = Result { try AtomicFileWriter.write(encoding.encode(text), to: URL(fileURLWithPath: path), newFileMode: AtomicFileWriter.userDocumentMode) }
                    DispatchQueue.main.async { [weak self] in
                        if case .failure(let error) = result {
                            self?.editor.presentError(OperationError(.saveCopy, note: name, underlying: error)) { _ in }
                        }
                        done(false)  // the copy is safe; the note itself is still unsaved
                    }
                }
            }
        }
    }

    func showInFiles(_ url: URL) -> RecoveryAction {
        // TRANSLATORS: button: open the note's folder in the file manager
        RecoveryAction(tr("Show in Files")) { [weak self] done in
            FileBrowser.showFolder(PathBytes.bytes(url.deletingLastPathComponent().path), parent: self?.window)
            done(false)
        }
    }
}
