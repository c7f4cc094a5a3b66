import Foundation

/// Other versions of the note and the user's way out of them. Nothing is lost on any path:
/// the file is never overwritten with a version the user has not seen, a conflict copy is
/// removed only after the chosen text is safely written, and the side set aside goes to the
/// note's `NoteHistory`.
extension NoteDocument {
    public enum ConflictChoice: Equatable, Sendable {
        /// Keep the note's text (the editor's); set the other version aside.
        case keepThis
        /// Put the other version's bytes into the note; set the note's text aside.
        case keepOther
        /// The other version becomes a new note at this URL; the note keeps its text.
        case keepBoth(newNote: URL)
    }

    /// The file holds a version the editor's unsaved text was not merged with: saving waits.
    public var hasDiskConflict: Bool { otherVersions.contains { $0.origin == .changedOnDisk } }

    /// True when the text in the editor is this computer's: unsaved edits, or bytes a Notula
    /// save on this computer wrote.
    public var thisVersionIsLocal: Bool {
        hasUnsavedChanges || localWrites.wrote(ContentHash.of(encoding.encode(currentText())), for: fileURL)
    }

    // MARK: Changes on disk

    /// Another version is on disk. Without local edits: reload in place. With local edits:
    /// a three-way merge against the last saved text; if both changed the same lines, a
    /// conflict that keeps both (disk untouched, local text in memory and in a draft).
    func diskChanged(_ data: Data, identity: FileIdentity, fileSize: Int64? = nil) {
        fileIsMissing = false
        // Only the beginning of a very large file was read: never a version to choose or
        // merge (choosing it would cut the file). Unsaved words go to a draft.
        let isCut = (fileSize ?? 0) > Int64(data.count)
        if isCut, hasUnsavedChanges, !isReadOnly { keepDraft(reason: "file became very large") }
        guard (hasUnsavedChanges || hasDiskConflict) && !isCut else {
            recordSavedText(origin: .beforeReload)
            disableEditing()
            queue.async { self.diskIdentity = identity }
            load(data, identity: identity, fileSize: fileSize)
            publish(.textReplaced)
            enableEditing()
            return
        }
        let decoded = NoteEncoding.decode(data)
        if !hasDiskConflict, let base = savedText, decoded.problem == nil, decoded.encoding == encoding,
           case let theirs = decoded.text, case .merged(let merged) = ThreeWayMerge.merge(base: base, ours: currentText(), theirs: theirs) {
            recordCurrentText(origin: .beforeMerge)
            takeMerged(merged, onDisk: theirs, identity: identity)
            return
        }
        let other = ConflictingVersion(origin: .changedOnDisk, url: fileURL, data: data, modified: identity.modificationDate,
                                       writtenHere: localWrites.wrote(identity.contentHash, for: fileURL))
        otherVersions = [other] + otherVersions.filter { $0.origin != .changedOnDisk }
        keepDraft(reason: "conflict")
    }

    /// The merge worked: the file's version becomes the new base, the merged text goes to the
    /// editor and is saved like an edit.
    private func takeMerged(_ merged: String, onDisk: String, identity: FileIdentity) {
        queue.async { self.diskIdentity = identity }
        savedText = onDisk
        fileModificationDate = identity.modificationDate
        text = merged
        if merged == onDisk { updateChangeCount(.cleared) } else { updateChangeCount(.done) }
        publish(.textReplaced)
        publish(.merged)
    }

    // MARK: Conflict copies

    /// Looks for sync clients' conflict copies of this note beside it (at open, and when the
    /// folder watcher sees one come or go).
    public func refreshConflictCopies(completion: (@MainActor () -> Void)? = nil) {
        guard !state.contains(.closed) else { completion?(); return }
        let url = fileURL
        let localWrites = self.localWrites
        queue.async {
            let copies = NoteDocument.conflictCopies(of: url, localWrites: localWrites)
            DispatchQueue.main.async {
                defer { completion?() }
                guard !self.state.contains(.closed), url == self.fileURL else { return }
                self.otherVersions = self.otherVersions.filter { $0.origin == .changedOnDisk } + copies
            }
        }
    }

    /// Document queue: the readable conflict copies of the note at `url`, by name.
    nonisolated private static func conflictCopies(of url: URL, localWrites: LocalWrites) -> [ConflictingVersion] {
        let folder = url.deletingLastPathComponent()
        return ConflictCopyScan.shared.candidates(in: folder).compactMap { name in
            guard let copy = ConflictCopy.parse(name), copy.originalName == url.lastPathComponent,
                  let read = try? FileIdentity.read(folder.appendingPathComponent(name)) else { return nil }
            // Sync clients rename the note's file to make the copy, so "written here" is asked of the note.
            return ConflictingVersion(origin: .conflictCopy(copy), url: folder.appendingPathComponent(name), data: read.data,
                                      modified: read.identity.modificationDate,
                                      writtenHere: localWrites.wrote(read.identity.contentHash, for: url))
        }
    }

    // MARK: Resolving

    /// What the document queue did for a resolution.
    private struct Resolution: Sendable {
        /// The note's file now holds this (nil: it was not written).
        var written: (data: Data, identity: FileIdentity)?
    }

    /// Carries out the user's choice about `version` (one of `otherVersions`). Editing is off
    /// meanwhile. Fails without changing anything when a version changed since it was shown.
    public func resolveConflict(with version: ConflictingVersion, choosing choice: ConflictChoice,
                                completion: @escaping @MainActor (Result<Void, Error>) -> Void) {
        guard !state.contains(.closed), otherVersions.contains(version) else {
            return completion(.failure(DocumentError.changedWhileResolving(note: displayName)))
        }
        if choice == .keepOther && isReadOnly {
            return completion(.failure(DocumentError.readOnly(note: displayName, reason: readOnlyReason)))
        }
        autosaver?.cancel()
        let thisText = currentText()
        let thisData = encoding.encode(thisText)
        let writeThis = (hasUnsavedChanges || version.origin == .changedOnDisk) && !isReadOnly
        let token = changeCountToken()
        let note = displayName, url = fileURL
        disableEditing()
        queue.async {
            let result = Result { try self.carryOut(choice, version: version, of: url, thisData: thisData, writeThis: writeThis, note: note) }
            DispatchQueue.main.async {
                defer { self.enableEditing() }
                switch result {
                case .success(let resolution):
                    if let written = resolution.written {
                        let isThisText = written.data == thisData
                        if isThisText {
                            self.savedText = thisText
                            self.fileModificationDate = written.identity.modificationDate
                            self.updateChangeCount(withToken: token)
                        } else {
                            self.load(written.data, identity: written.identity)
                            self.publish(.textReplaced)
                        }
                        self.publish(.saved)
                    }
                    self.otherVersions.removeAll { $0 == version }
                    completion(.success(()))
                case .failure(let error):
                    // Look again: what is on disk now is what the user should see.
                    self.checkDisk()
                    self.refreshConflictCopies()
                    completion(.failure(error))
                }
            }
        }
    }

    /// Document queue: the file work of a resolution, in an order that never loses a version:
    /// set aside or copy first, then write the note, then remove the conflict copy.
    nonisolated private func carryOut(_ choice: ConflictChoice, version: ConflictingVersion, of fileURL: URL, thisData: Data,
                                      writeThis: Bool, note: String) throws -> Resolution {
        // Nothing changed since the user looked: the other version, and the note's file.
        let versionRead = try? FileIdentity.read(version.url)
        guard let versionRead, versionRead.identity.contentHash == version.contentHash else {
            throw DocumentError.changedWhileResolving(note: note)
        }
        // What the note's file holds now, as the writes below expect to find it (nil: nothing).
        var expected: FileIdentity?
        if case .conflictCopy = version.origin {
            let current = try? FileIdentity.read(fileURL)
            if let known = diskIdentity, current?.identity.contentHash != known.contentHash {
                throw DocumentError.changedWhileResolving(note: note)
            }
            expected = current?.identity
        } else {
            expected = versionRead.identity
        }
        // Writes the note's file in the same step as checking it still holds `expected`: a
        // version another program wrote since the check stays, and the resolution stops.
        func writeNote(_ data: Data) throws -> (data: Data, identity: FileIdentity) {
            let identity: FileIdentity
            if let expected {
                guard case .written(let written) = try AtomicFileWriter.replace(data, at: fileURL, expecting: expected) else {
                    throw DocumentError.changedWhileResolving(note: note)
                }
                identity = written
            } else {
                do {
                    identity = try AtomicFileWriter.create(data, at: fileURL)
                } catch let error as StorageError where error.code == EEXIST {
                    throw DocumentError.changedWhileResolving(note: note)
                }
            }
            diskIdentity = identity
            localWrites.record(identity.contentHash, for: fileURL)
            return (data, identity)
        }
        var resolution = Resolution()
        switch choice {
        case .keepThis:
            try history.keep(version.data, of: fileURL, origin: .otherVersion)
            if writeThis { resolution.written = try writeNote(thisData) }
        case .keepOther:
            try history.keep(thisData, of: fileURL, origin: .replacedVersion)
            resolution.written = version.origin == .changedOnDisk
                ? (version.data, versionRead.identity)
                : try writeNote(version.data)
        case .keepBoth(let newNote):
            try AtomicFileWriter.create(version.data, at: newNote)
            guard (try? FileIdentity.read(newNote))?.identity.contentHash == version.contentHash else {
                throw StorageError(.write, path: newNote.path, code: EIO)
            }
            if writeThis { resolution.written = try writeNote(thisData) }
        }
        if version.origin == .changedOnDisk {
            if let written = resolution.written { diskIdentity = written.identity }
            drafts.removeOwn(for: fileURL)  // the file holds the text the user chose
        } else {
            // A conflict copy another program rewrote since it was read stays (shown again).
            _ = try AtomicFileWriter.remove(version.url, expecting: versionRead.identity)
        }
        return resolution
    }
}
