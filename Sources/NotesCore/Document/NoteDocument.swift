import Foundation

/// One open note (after UIDocument): its text, a change count, and saving.
///
/// Edits arrive on the main thread. Reads and writes run on the document's own serial queue,
/// so they never interleave and never block typing; completions come back on the main queue.
/// A save takes a change-count token when it starts: edits made while it writes stay unsaved.
public final class NoteDocument {
    public let url: URL
    public private(set) var text: String
    /// Why the note cannot be edited (not UTF-8 text), or nil when it can.
    public let readOnlyReason: String?
    public var isReadOnly: Bool { readOnlyReason != nil }

    private var changeCount = 0
    private var savedChangeCount = 0
    public var hasUnsavedChanges: Bool { changeCount != savedChangeCount }

    /// The last save's failure, cleared by the next successful save.
    public private(set) var lastSaveError: Error?
    /// Called on the main queue after each save attempt (the list refreshes, errors are shown).
    public var onSaveFinished: ((NoteDocument, Error?) -> Void)?

    private let queue: DispatchQueue
    private lazy var autosaver = AutosaveScheduler { [weak self] in self?.save() }

    init(url: URL, text: String, readOnlyReason: String?) {
        self.url = url
        self.text = text
        self.readOnlyReason = readOnlyReason
        queue = DispatchQueue(label: "notula.document.\(url.lastPathComponent)")
    }

    /// Reads a note. Text that is not valid UTF-8 is shown (with replacement characters) but
    /// the document is read-only, so the file is never rewritten.
    public static func read(_ url: URL) throws -> NoteDocument {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StorageError(.read, path: url.path, code: StorageError.posixCode(of: error, fallback: EIO))
        }
        if let text = String(validating: data, as: UTF8.self) {
            return NoteDocument(url: url, text: text, readOnlyReason: nil)
        }
        return NoteDocument(url: url, text: String(decoding: data, as: UTF8.self),
                            readOnlyReason: "This file is not UTF-8 text. Notula shows it read-only and never changes it.")
    }

    /// Opens a note off the main thread; the completion runs on the main queue.
    public static func open(_ url: URL, completion: @escaping (Result<NoteDocument, Error>) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            let result = Result { try read(url) }
            DispatchQueue.main.async { completion(result) }
        }
    }

    /// The user changed the text: count the change and let autosave pick it up.
    public func edit(_ newText: String) {
        guard !isReadOnly, newText != text else { return }
        text = newText
        changeCount += 1
        autosaver.noteChanged()
    }

    /// Saves the current text in the background (no-op when nothing changed).
    public func save(completion: ((Error?) -> Void)? = nil) {
        autosaver.cancel()
        guard hasUnsavedChanges, !isReadOnly else { completion?(nil); return }
        let token = changeCount
        let snapshot = Data(text.utf8)
        let url = self.url
        queue.async {
            let error = Result { try AtomicFileWriter.write(snapshot, to: url) }.failure
            DispatchQueue.main.async { [weak self] in
                self?.finishSave(token: token, error: error)
                completion?(error)
            }
        }
    }

    /// Saves now and waits (closing a note, closing the window, quitting).
    public func saveAndWait() throws {
        autosaver.cancel()
        guard hasUnsavedChanges, !isReadOnly else { return }
        let token = changeCount
        let snapshot = Data(text.utf8)
        let url = self.url
        let error = queue.sync { Result { try AtomicFileWriter.write(snapshot, to: url) }.failure }
        finishSave(token: token, error: error)
        if let error { throw error }
    }

    private func finishSave(token: Int, error: Error?) {
        lastSaveError = error
        if error == nil { savedChangeCount = max(savedChangeCount, token) }
        onSaveFinished?(self, error)
    }

    /// Stops autosave timers (the document is being closed).
    public func close() { autosaver.cancel() }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
