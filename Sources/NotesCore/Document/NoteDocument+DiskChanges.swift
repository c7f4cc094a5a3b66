import Foundation

extension NoteDocument {
    /// Watches the note's folder for changes to this note's file and to conflict copies of it.
    /// When the folder cannot be watched (the user's inotify watches are used up), the file is
    /// looked at every few seconds instead: a change is noticed late, never missed.
    func startWatching() {
        let name = fileURL.lastPathComponent
        let folder = fileURL.deletingLastPathComponent()
        stopWatching()
        do {
            watcher = try FolderWatcher(folder: folder) { [weak self] changes in
                // Another program changed the folder (not our own failing temporaries): a failed save may work now.
                if changes.contains(where: { !AtomicFileWriter.isTemporary($0.name) }) { self?.retryFailedSaveSoon() }
                if changes.contains(where: { $0.name.isEmpty || ConflictCopy.parse($0.name)?.originalName == name }) {
                    ConflictCopyScan.shared.forget(folder)
                    self?.refreshConflictCopies()
                }
                if changes.contains(where: { $0.name == name || $0.name.isEmpty }) {
                    self?.checkDisk()
                }
            }
        } catch {
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
            timer.setEventHandler { [weak self] in
                self?.checkDisk()
                self?.refreshConflictCopies()
            }
            timer.resume()
            pollTimer = timer
        }
    }

    static let pollInterval: TimeInterval = 5

    func stopWatching() {
        watcher = nil
        pollTimer?.cancel()
        pollTimer = nil
    }

    /// The folder watcher (tests switch it off to race a change against a save).
    var watcherForTesting: FolderWatcher? {
        get { watcher }
        set { watcher = newValue }
    }

    /// Compares the file on disk with the version this document knows (after a watcher event,
    /// or when the app regains focus). Our own saves are recognised by identity and ignored.
    public func checkDisk(completion: (@MainActor () -> Void)? = nil) {
        guard !state.contains(.closed) else { completion?(); return }
        let url = fileURL
        let whole = allowsLargeText
        queue.async {
            let finding = self.compareWithDisk(url, whole: whole)
            DispatchQueue.main.async {
                defer { completion?() }
                guard !self.state.contains(.closed) else { return }
                switch finding {
                case .unchanged: if self.fileIsMissing { self.fileIsMissing = false }
                case .missing: self.fileRemoved()
                case .changed(let data, let identity, let fileSize): self.diskChanged(data, identity: identity, fileSize: fileSize)
                case .unreadable(let error):
                    // Another program changed the file and it cannot be read now: keep ours, say so.
                    self.handleError(OperationError(.reload, note: self.displayName, underlying: error), userInteractionPermitted: true,
                                     retry: { self.checkDisk() }, giveUp: nil)
                }
            }
        }
    }

    enum DiskFinding: Sendable { case unchanged, missing, changed(Data, FileIdentity, fileSize: Int64), unreadable(Error) }

    /// Document queue: what is on disk compared with what this document knows.
    nonisolated private func compareWithDisk(_ url: URL, whole: Bool) -> DiskFinding {
        let current: FileIdentity
        switch FileIdentity.lookUp(url) {
        case .found(let identity): current = identity
        case .missing: return .missing
        case .failed(let error): return .unreadable(error)  // e.g. no permission: not "deleted"
        }
        let known = diskIdentity
        if let known, current.hasSameMetadata(as: known) { return .unchanged }
        let read: (data: Data, identity: FileIdentity, fileSize: Int64)
        do {
            read = try LargeNote.read(url, whole: whole)
        } catch {
            return .unreadable(error)
        }
        if let known, read.identity.contentHash == known.contentHash {
            diskIdentity = read.identity  // touched, same bytes
            return .unchanged
        }
        return .changed(read.data, read.identity, fileSize: read.fileSize)
    }

    /// The file was deleted or moved away: keep the text (in memory and a draft), say so, and
    /// wait for the user to save it again; autosave must not silently recreate it.
    func fileRemoved() {
        guard !fileIsMissing else { return }
        autosaver?.cancel()
        if !isReadOnly {
            // What is in memory is now the only copy: it counts as unsaved.
            if !hasUnsavedChanges { updateChangeCount(.done) }
            autosaver?.cancel()
            keepDraft(reason: "file missing")
        }
        queue.async { self.diskIdentity = nil }
        fileIsMissing = true
    }

    /// Writes the text again after its file was deleted or moved away.
    public func saveAgain(completion: (@MainActor (Bool) -> Void)? = nil) {
        save(for: .forCreating) { [weak self] saved in
            if saved { self?.fileIsMissing = false }
            completion?(saved)
        }
    }

    // MARK: Moving with the library

    /// All notes are about to move: typing stops at once (`editingDisabled`, and
    /// `progressAvailable` says a long operation runs), the text is saved without blocking,
    /// then watching stops. `completion` gets nil once the document is held, or why it could not
    /// be saved — then it is as it was before.
    public func beginMove(completion: @escaping @MainActor (Error?) -> Void) {
        disableEditing()
        state.insert(.progressAvailable)
        saveBeforeLeaving { [weak self] error in
            guard let self else { return completion(nil) }
            if let error {
                self.state.remove(.progressAvailable)
                self.enableEditing()
                return completion(error)
            }
            self.stopWatching()
            completion(nil)
        }
    }

    /// The move ended: the note is now at `newURL` (nil: it did not move). Watching and
    /// editing resume there, and the moved file is compared with the bytes this document last
    /// read or wrote (watching was off meanwhile): another program's edits made during the move
    /// are reloaded, merged or a conflict — never taken as ours and overwritten by the next save.
    public func endMove(at newURL: URL?) {
        if let newURL, newURL != fileURL { fileURL = newURL }
        startWatching()
        state.remove(.progressAvailable)
        enableEditing()
        checkDisk()
    }
}
