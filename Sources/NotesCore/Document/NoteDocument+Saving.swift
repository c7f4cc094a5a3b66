import Foundation
import Synchronization

extension NoteDocument {
    public enum SaveOperation: Sendable {
        /// Write a new file (or write again a file another program deleted).
        case forCreating
        /// Replace the file this document read, but never a version it has not seen.
        case forOverwriting
    }

    /// What a write on the document queue found.
    enum WriteOutcome: Sendable {
        case written(FileIdentity)
        /// Another program changed the file since we read it: nothing was written.
        case changedOnDisk(Data, FileIdentity)
        /// The file is gone: nothing was written (saving again is the user's choice).
        case missing
        case failed(Error)
    }

    /// Saves the text in the background. Refuses (completion false, nothing written) while the
    /// file holds a version the user has not decided about, while the file is missing (unless creating), or for a read-only note.
    public func save(to url: URL? = nil, for operation: SaveOperation = .forOverwriting, completion: (@MainActor (Bool) -> Void)? = nil) {
        save(to: url, for: operation, isAutosave: false, completion: completion)
    }

    private func save(to url: URL?, for operation: SaveOperation, isAutosave: Bool, completion: (@MainActor (Bool) -> Void)?) {
        autosaver?.cancel()
        // Nothing to write: saved only if the file holds the text (not when it is gone).
        guard var prepared = saveRequest(to: url, for: operation) else { completion?(!hasUnsavedChanges && !fileIsMissing); return }
        prepared.isAutosave = isAutosave
        let request = prepared
        queue.async {
            let outcome = self.write(request)
            DispatchQueue.main.async {
                self.finishSave(request, outcome, interactive: true,
                                retry: { self.save(to: url, for: operation, isAutosave: isAutosave, completion: completion) },
                                completion: completion)
            }
        }
    }

    /// Saves if there are unsaved changes (autosave timer, switching notes). In conflict or
    /// with the file gone it writes the recovery draft instead. Errors set the state; only the
    /// first of a series is presented.
    public func autosave(completion: (@MainActor (Bool) -> Void)? = nil) {
        guard hasUnsavedChanges, !isReadOnly, !state.contains(.closed) else {
            completion?(false)
            return
        }
        if hasDiskConflict || fileIsMissing {
            // Saving is on hold until the user decides; the newest words go to the draft.
            keepDraft(reason: fileIsMissing ? "file missing" : "conflict")
            completion?(false)
            return
        }
        save(to: nil, for: .forOverwriting, isAutosave: true, completion: completion)
    }

    /// Saves now and waits at most `timeout` seconds (closing the window, quitting). Throws
    /// when the text could not be written; the text is then also in a recovery draft.
    public func saveAndWait(timeout: TimeInterval = 10) throws {
        autosaver?.cancel()
        guard hasUnsavedChanges, !isReadOnly else { return }
        if hasDiskConflict {
            keepDraft(reason: "conflict")
            throw DocumentError.inConflict(note: displayName)
        }
        if fileIsMissing {
            keepDraft(reason: "file missing")
            throw DocumentError.fileMissing(note: displayName)
        }
        guard let request = saveRequest(to: nil, for: .forOverwriting) else { return }
        let done = DispatchSemaphore(value: 0)
        let result = OutcomeBox()
        queue.async {
            result.outcome.withLock { $0 = self.write(request) }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let outcome = result.outcome.withLock({ $0 }) else {
            // The queue is stuck in the write: keep the words outside it, from here.
            try? drafts.save(request.text, for: request.url, reason: "save timed out", encoding: request.encoding)
            let error = DocumentError.saveTimedOut(note: displayName)
            lastError = error
            state.insert(.savingError)
            throw error
        }
        var saved = false
        finishSave(request, outcome, interactive: false, retry: nil) { saved = $0 }
        if !saved {
            throw lastError ?? DocumentError.inConflict(note: displayName)
        }
        recordSavedText(origin: .closed)
    }

    /// Saves now without blocking the main thread (switching away, deleting, moving, closing
    /// the window): `completion` gets nil once the file holds the text, or why not — a version
    /// the user has not decided about, a missing file, a failed write. A write that takes more
    /// than `timeout` seconds (a hung disk) leaves the text in a recovery draft and reports
    /// `saveTimedOut`; if it lands later, the document takes it as saved.
    public func saveBeforeLeaving(timeout: TimeInterval = 10, completion: @escaping @MainActor (Error?) -> Void) {
        autosaver?.cancel()
        guard hasUnsavedChanges, !isReadOnly else {
            recordSavedText(origin: .closed)
            return completion(nil)
        }
        if hasDiskConflict || fileIsMissing {
            // Answered once the words are in their draft (the app may quit next).
            let error = hasDiskConflict ? DocumentError.inConflict(note: displayName) : DocumentError.fileMissing(note: displayName)
            return keepDraft(reason: hasDiskConflict ? "conflict" : "file missing") { completion(error) }
        }
        guard let request = saveRequest(to: nil, for: .forOverwriting) else { return completion(nil) }
        let answer = LeavingAnswer()
        let deadline = DispatchWorkItem { [weak self] in
            guard let self, !answer.isGiven else { return }
            answer.isGiven = true
            // The document's queue is stuck in the write: keep the words outside it.
            let drafts = self.drafts
            DispatchQueue.global(qos: .userInitiated).async { try? drafts.save(request.text, for: request.url, reason: "save timed out", encoding: request.encoding) }
            let error = DocumentError.saveTimedOut(note: self.displayName)
            self.lastError = error
            self.state.insert(.savingError)
            completion(error)
        }
        answer.deadline = deadline
        DispatchQueue.main.asyncAfter(deadline: .now() + timeout, execute: deadline)
        queue.async {
            let outcome = self.write(request)
            DispatchQueue.main.async {
                answer.deadline?.cancel()
                var saved = false
                self.finishSave(request, outcome, interactive: false, retry: nil) { saved = $0 }
                if saved { self.recordSavedText(origin: .closed) }
                guard !answer.isGiven else { return }
                answer.isGiven = true
                completion(saved ? nil : (self.lastError ?? DocumentError.inConflict(note: self.displayName)))
            }
        }
    }

    struct SaveRequest: Sendable {
        let url: URL
        let text: String
        let token: ChangeCountToken
        let operation: SaveOperation
        /// How the text becomes the file's bytes (its line endings, a byte-order mark).
        let encoding: NoteEncoding
        /// The document's own file (not a copy elsewhere).
        let ownFile: Bool
        var isAutosave = false
    }

    private func saveRequest(to url: URL?, for operation: SaveOperation) -> SaveRequest? {
        guard !isReadOnly, !state.contains(.closed) else { return nil }
        let target = url ?? fileURL
        let sameFile = target == fileURL
        if operation == .forOverwriting && sameFile && (hasDiskConflict || fileIsMissing) { return nil }
        if operation == .forOverwriting && sameFile && !hasUnsavedChanges { return nil }
        return SaveRequest(url: target, text: currentText(), token: changeCountToken(), operation: operation, encoding: encoding,
                           ownFile: sameFile)
    }

    /// Runs on the document queue. Before overwriting, checks the file is still the one this
    /// document knows; a change it has not seen is never overwritten.
    nonisolated private func write(_ request: SaveRequest) -> WriteOutcome {
        if request.operation == .forOverwriting && request.ownFile {
            // Only a file that is really gone is "missing"; any other stat failure (no
            // permission, the folder replaced by a file) is met by the write, with its errno.
            let lookup = FileIdentity.lookUp(request.url)
            if case .missing = lookup { return .missing }
            if case .found(let current) = lookup, let known = diskIdentity, !current.hasSameMetadata(as: known) {
                if let read = try? FileIdentity.read(request.url), read.identity.contentHash != known.contentHash {
                    return .changedOnDisk(read.data, read.identity)
                }
            }
        }
        do {
            let data = request.encoding.encode(request.text)
            let identity: FileIdentity
            if request.operation == .forOverwriting, request.ownFile, let known = diskIdentity {
                // The check above and the rename are apart: another program can write in
                // between. The replace checks again in the same step as the change.
                switch try AtomicFileWriter.replace(data, at: request.url, expecting: known) {
                case .written(let written): identity = written
                case .foundOther(let other, let otherIdentity): return .changedOnDisk(other, otherIdentity)
                case .missing: return .missing
                }
            } else if request.ownFile {
                // Save Again of a note another program deleted (or a file this document never
                // read): a file that appeared under its name since is that program's, never replaced.
                do {
                    identity = try AtomicFileWriter.create(data, at: request.url)
                } catch let error as StorageError where error.code == EEXIST {
                    let other = try FileIdentity.read(request.url)
                    return .changedOnDisk(other.data, other.identity)
                }
            } else {
                identity = try AtomicFileWriter.write(data, to: request.url)
            }
            if request.ownFile {
                history.record(of: request.url, origin: .edited) { data }  // at most one every few minutes
                diskIdentity = identity
                localWrites.record(identity.contentHash, for: request.url)
                drafts.removeOwn(for: request.url)  // the file holds the words now
            }
            return .written(identity)
        } catch {
            try? drafts.save(request.text, for: request.url, reason: "save failed", encoding: request.encoding)
            return .failed(error)
        }
    }

    /// Main queue: applies a write's outcome; `completion` learns whether the text was
    /// written, once any error has been dealt with (a recovered error runs `retry` instead).
    private func finishSave(_ request: SaveRequest, _ outcome: WriteOutcome, interactive: Bool,
                            retry: (() -> Void)?, completion: (@MainActor (Bool) -> Void)?) {
        switch outcome {
        case .written(let identity):
            if request.ownFile {
                savedText = request.text
                fileModificationDate = identity.modificationDate
                fileIsMissing = false
                updateChangeCount(withToken: request.token)
            }
            lastError = nil
            if request.ownFile { failedSaveRetries = 0 }
            if state.contains(.savingError) {
                state.remove(.savingError)
            }
            publish(.saved)
            completion?(true)
        case .changedOnDisk(let data, let identity):
            diskChanged(data, identity: identity)
            completion?(false)
        case .missing:
            fileRemoved()
            completion?(false)
        case .failed(let error):
            let firstFailure = !state.contains(.savingError)
            let error = OperationError(request.isAutosave ? .autosave : .save, note: displayName, underlying: error)
            lastError = error
            state.insert(.savingError)
            publish(.statusChanged)
            if request.ownFile { scheduleRetryOfFailedSave() }
            if interactive && !firstFailure {
                // Said once for this failure episode; retries fail quietly, the text in its draft.
                if hasUnsavedChanges && !isReadOnly { keepDraft(reason: "save failed") }
                completion?(false)
            } else {
                handleError(error, userInteractionPermitted: interactive, retry: retry, giveUp: { completion?(false) })
            }
        }
    }
}

extension NoteDocument {
    /// Delays between automatic retries of a failed save: 2 s, doubling, at most a minute.
    static func retryDelay(afterFailures failures: Int) -> TimeInterval {
        min(60, 2 * pow(2, Double(max(0, failures - 1))))
    }

    /// While a save has failed (a full or read-only disk, a folder without permission), the
    /// document keeps trying by itself, as UIDocument keeps autosaving: the light turns green
    /// once the disk is back, without a click. The dialog was shown once, for the first failure;
    /// retries are autosaves and ask nothing.
    func scheduleRetryOfFailedSave(after delay: TimeInterval? = nil) {
        failedSaveRetries += 1
        let wait = delay ?? Self.retryDelay(afterFailures: failedSaveRetries)
        retryWork?.cancel()
        let work = DispatchWorkItem { [weak self] in self?.retryFailedSave() }
        retryWork = work
        DispatchQueue.main.asyncAfter(deadline: .now() + wait, execute: work)
    }

    /// Something changed in the note's folder (space freed, permissions changed): try again soon.
    func retryFailedSaveSoon() {
        guard state.contains(.savingError) else { return }
        scheduleRetryOfFailedSave(after: 0.5)
    }

    private func retryFailedSave() {
        retryWork = nil
        guard state.contains(.savingError), hasUnsavedChanges, !state.contains(.closed) else { return }
        autosave()
    }
}

/// Carries a write's outcome from the document queue to the thread waiting for it.
private final class OutcomeBox: Sendable {
    let outcome = Mutex<NoteDocument.WriteOutcome?>(nil)
}

/// Whether `saveBeforeLeaving` has answered: its write or its deadline, whichever came first.
@MainActor
private final class LeavingAnswer {
    var isGiven = false
    var deadline: DispatchWorkItem?
}
