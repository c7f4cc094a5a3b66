import Foundation

extension NoteDocument {
    /// Reads the file (off the main thread) and starts watching it. Temporary files a crash
    /// left beside this note are removed first; the note itself is never touched.
    /// Text that is not valid UTF-8 opens read-only and is never written.
    public func open(completion: ((Bool) -> Void)? = nil) {
        let url = fileURL
        queue.async {
            AtomicFileWriter.removeLeftovers(in: url.deletingLastPathComponent(), of: url.lastPathComponent)
            let result = Result { try FileIdentity.read(url) }
            if case .success(let read) = result { self.diskIdentity = read.identity }
            DispatchQueue.main.async {
                switch result {
                case .success(let read):
                    self.load(read.data, identity: read.identity)
                    self.state = self.isReadOnly ? [.editingDisabled] : []
                    self.startWatching()
                    self.refreshConflictCopies()
                    completion?(true)
                case .failure(let error):
                    let failure = OperationError(.open, note: nil, underlying: error)
                    self.lastError = failure
                    self.handleError(failure, userInteractionPermitted: true,
                                     retry: { self.open(completion: completion) }, giveUp: { completion?(false) })
                }
            }
        }
    }

    /// Takes text read from disk as the document's (main queue).
    func load(_ data: Data, identity: FileIdentity) {
        if let decoded = String(validating: data, as: UTF8.self) {
            text = decoded
            savedText = decoded
            readOnlyReason = access(fileURL.path, W_OK) == 0 ? nil
                : "You do not have permission to change this file, so Notula shows it read-only."
            if readOnlyReason != nil { state.insert(.editingDisabled) }
        } else {
            text = String(decoding: data, as: UTF8.self)
            savedText = nil
            readOnlyReason = "This file is not UTF-8 text. Notula shows it read-only and never changes it."
            state.insert(.editingDisabled)
        }
        fileModificationDate = identity.modificationDate
        updateChangeCount(.cleared)
    }

    /// Saves unsaved text, stops watching and autosave, and closes. A failed save keeps the
    /// text in a recovery draft, reports the error, and still closes (completion: false).
    public func close(completion: ((Bool) -> Void)? = nil) {
        guard !state.contains(.closed) else { completion?(true); return }
        autosaver?.cancel()
        // Take the editor's text now and let go of it: the editor may show another note next.
        _ = currentText()
        contentProvider = nil
        let finish: (Bool) -> Void = { [self] saved in
            watcher = nil
            state = .closed
            completion?(saved)
        }
        if hasUnsavedChanges && !isReadOnly && !hasDiskConflict && !fileIsMissing {
            save { saved in finish(saved) }
        } else {
            if hasUnsavedChanges && !isReadOnly { keepDraft(reason: hasDiskConflict ? "conflict" : "file missing") }
            finish(true)
        }
    }

    /// Replaces the text with the file's (or `url`'s) content. Editing is disabled meanwhile;
    /// unsaved text is kept in a recovery draft first, so a revert never loses words.
    public func revert(toContentsOf url: URL? = nil, completion: ((Bool) -> Void)? = nil) {
        let source = url ?? fileURL
        if hasUnsavedChanges && !isReadOnly { keepDraft(reason: "reverted") }
        disableEditing()
        autosaver?.cancel()
        queue.async {
            let result = Result { try FileIdentity.read(source) }
            if case .success(let read) = result, source == self.fileURL { self.diskIdentity = read.identity }
            DispatchQueue.main.async {
                defer { self.enableEditing() }
                switch result {
                case .success(let read):
                    self.load(read.data, identity: read.identity)
                    self.state.remove(.savingError)
                    if source == self.fileURL { self.otherVersions.removeAll { $0.origin == .changedOnDisk } }
                    self.fileIsMissing = false
                    self.lastError = nil
                    self.publish(.textReplaced)
                    self.publish(.statusChanged)
                    completion?(true)
                case .failure(let error):
                    let failure = OperationError(.revert, note: self.displayName, underlying: error)
                    self.lastError = failure
                    self.handleError(failure, userInteractionPermitted: true,
                                     retry: { self.revert(toContentsOf: url, completion: completion) }, giveUp: { completion?(false) })
                }
            }
        }
    }

    /// Writes the current text to the recovery drafts (never fails loudly: it is the safety net).
    func keepDraft(reason: String) {
        let snapshot = currentText()
        let url = fileURL
        let drafts = self.drafts
        queue.async { try? drafts.save(snapshot, for: url, reason: reason) }
    }
}
