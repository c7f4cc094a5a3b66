import Foundation

extension NoteDocument {
    /// Reads the file (off the main thread) and starts watching it. Text that cannot be
    /// written back exactly (not UTF-8, a NUL) opens read-only and is never written; a note
    /// too large to lay out at once opens in the safe mode (`LargeNote`).
    /// (Temporaries a crash left are removed by `NoteLibrary.prepare`, once they are old:
    /// here a closing save of this very note may still be writing one.)
    public func open(completion: (@MainActor (Bool) -> Void)? = nil) {
        let url = fileURL
        let drafts = self.drafts
        let whole = allowsLargeText
        queue.async {
            // Words an earlier document of this note left in a draft are never replaced by this one's.
            drafts.setAside(for: url)
            let result = Result { try LargeNote.read(url, whole: whole) }
            if case .success(let read) = result {
                self.diskIdentity = read.identity
                // Only a whole file is a version of the note, and not one opened anyway past the
                // read limit (read-only: it can never change here; hundreds of MB to compress).
                if read.fileSize == Int64(read.data.count), read.data.count <= LargeNote.maximumReadBytes {
                    self.history.record(of: url, origin: .opened) { read.data }
                }
            }
            DispatchQueue.main.async {
                switch result {
                case .success(let read):
                    self.load(read.data, identity: read.identity, fileSize: read.fileSize)
                    self.state = self.isReadOnly ? [.editingDisabled] : []
                    self.startWatching()
                    self.refreshConflictCopies()
                    completion?(true)
                case .failure(let error):
                    // Named by its file: no text was read to take a title from ("New Note" would be wrong).
                    let failure = OperationError(.open, note: url.lastPathComponent, underlying: error)
                    self.lastError = failure
                    self.handleError(failure, userInteractionPermitted: true,
                                     retry: { self.open(completion: completion) }, giveUp: { completion?(false) })
                }
            }
        }
    }

    /// Takes text read from disk as the document's (main queue). The bytes are decoded by
    /// `NoteEncoding` (line endings and a byte-order mark remembered for saving); bytes that
    /// would not come back exactly, and notes too large to lay out, are read-only.
    func load(_ data: Data, identity: FileIdentity, fileSize: Int64? = nil) {
        let decoded = NoteEncoding.decode(data)
        encoding = decoded.encoding
        let large = allowsLargeText ? nil : LargeNote.problem(data, fileSize: fileSize)
        isLargePreview = large != nil
        isBeginningOnly = large != nil && (fileSize ?? 0) > Int64(data.count)
        text = large == nil ? decoded.text : LargeNote.preview(of: decoded.text)
        savedText = decoded.problem == nil ? decoded.text : nil
        if let problem = decoded.problem {
            readOnlyReason = problem
        } else if let large {
            readOnlyReason = large
        } else if data.count > LargeNote.maximumReadBytes {
            // Opened anyway: too large to save back safely as the user types (each save
            // writes it all again), so it stays read-only.
            let size = ByteCountFormatter.string(fromByteCount: Int64(data.count), countStyle: .file)
            // TRANSLATORS: %s is the file's size, such as “300 MB”.
            readOnlyReason = tr("This file is very large (%s), so Notula shows it read-only.", size)
        } else {
            readOnlyReason = access(fileURL.path, W_OK) == 0 ? nil
                : tr("You do not have permission to change this file, so Notula shows it read-only.")
        }
        if readOnlyReason != nil { state.insert(.editingDisabled) }
        fileModificationDate = identity.modificationDate
        updateChangeCount(.cleared)
    }

    /// A note shown in the safe mode (`isLargePreview`) is read again whole and made editable,
    /// because the user asked (the editor may take a while to lay it out).
    public func openLargeNoteAnyway(completion: (@MainActor (Bool) -> Void)? = nil) {
        guard isLargePreview else { completion?(true); return }
        allowsLargeText = true
        revert { [weak self] reverted in
            if reverted, let self, !self.isReadOnly, self.editingDisabledCount == 0 { self.state.remove(.editingDisabled) }
            completion?(reverted)
        }
    }

    /// Saves unsaved text, stops watching and autosave, and closes. A failed save keeps the
    /// text in a recovery draft, reports the error, and still closes (completion: false).
    public func close(completion: (@MainActor (Bool) -> Void)? = nil) {
        guard !state.contains(.closed) else { completion?(true); return }
        autosaver?.cancel()
        // Take the editor's text now and let go of it: the editor may show another note next.
        _ = currentText()
        contentProvider = nil
        let finish: (Bool) -> Void = { [self] saved in
            recordSavedText(origin: .closed)
            stopWatching()
            retryWork?.cancel()
            draftWork?.cancel()
            draftWork = nil
            state = .closed
            completion?(saved)
        }
        if hasUnsavedChanges && !isReadOnly && !hasDiskConflict && !fileIsMissing {
            save { saved in finish(saved) }
        } else if hasUnsavedChanges && !isReadOnly {
            // Closed only once the words are in their draft (the app may quit next).
            keepDraft(reason: hasDiskConflict ? "conflict" : "file missing") { finish(true) }
        } else {
            finish(true)
        }
    }

    /// Replaces the text with the file's (or `url`'s) content. Editing is disabled meanwhile;
    /// unsaved text is kept in a recovery draft first, so a revert never loses words.
    public func revert(toContentsOf url: URL? = nil, completion: (@MainActor (Bool) -> Void)? = nil) {
        let source = url ?? fileURL
        let isOwnFile = source == fileURL  // decided here: `fileURL` belongs to the main queue
        if hasUnsavedChanges && !isReadOnly { keepDraft(reason: "reverted") }
        if !isReadOnly { recordCurrentText(origin: .beforeRevert) }
        disableEditing()
        autosaver?.cancel()
        let whole = allowsLargeText
        queue.async {
            let result = Result { try LargeNote.read(source, whole: whole) }
            if case .success(let read) = result, isOwnFile { self.diskIdentity = read.identity }
            DispatchQueue.main.async {
                defer { self.enableEditing() }
                switch result {
                case .success(let read):
                    self.load(read.data, identity: read.identity, fileSize: read.fileSize)
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

    /// Keeps the text as the file holds it (as last read or written) in the note's history.
    func recordSavedText(origin: HistoryVersion.Origin) {
        guard let text = savedText else { return }
        let encoding = self.encoding
        history.record(of: fileURL, origin: origin) { encoding.encode(text) }
    }

    /// Keeps the editor's text, saved or not, in the note's history (before it is replaced).
    public func recordCurrentText(origin: HistoryVersion.Origin) {
        let text = currentText(), encoding = self.encoding
        history.record(of: fileURL, origin: origin) { encoding.encode(text) }
    }

    /// Writes the current text to the recovery drafts (never fails loudly: it is the safety net).
    /// `written` runs on the main queue once the draft is on disk (before quitting, say).
    func keepDraft(reason: String, written: (@MainActor () -> Void)? = nil) {
        let snapshot = currentText()
        let url = fileURL, encoding = self.encoding
        let drafts = self.drafts
        queue.async {
            try? drafts.save(snapshot, for: url, reason: reason, encoding: encoding)
            if let written { DispatchQueue.main.async(execute: written) }
        }
    }
}
