import Foundation
import Synchronization

/// One note file with a life (after UIDocument): closed → open → edited → autosaved →
/// (in conflict | saving error) → closed.
///
/// Threading: the document's state belongs to the main actor (it is what the window shows).
/// Its reads and writes run on its file's serial queue, so they never interleave and never
/// block typing; only `Sendable` values cross (a `SaveRequest`, the bytes read, an outcome),
/// and results come back on the main queue. What the queue knows of the file on disk
/// (`diskIdentity`, behind a mutex) is set by the queue's work, so our own saves are never
/// mistaken for another program's.
///
/// Split by concern: this file holds the state, change counting and observers;
/// `+Lifecycle` open, close and revert; `+Saving` saving and autosave; `+DiskChanges` watching
/// the file; `+Conflicts` merging, conflict copies and resolving; `+Errors` the error hooks.
@MainActor
public final class NoteDocument {
    public internal(set) var fileURL: URL
    /// The text as of the last edit passed in with `edit(_:)`, or the last time the
    /// `contentProvider` was read (saves, drafts, `displayName`).
    public internal(set) var text: String = ""
    /// While an editor shows the document, where its current text comes from (after
    /// UIDocument's contents(forType:)): read when saving, not on every keystroke, so typing
    /// into a long note costs nothing here. Edits then arrive as `updateChangeCount(.done)`.
    public var contentProvider: (() -> String)?
    public internal(set) var state: DocumentState = .closed {
        didSet { if state != oldValue { publish(.statusChanged) } }
    }
    /// Why the note can never be edited (not UTF-8 text), or nil.
    public internal(set) var readOnlyReason: String?
    /// True while the note is too large to edit at once and shows its beginning only
    /// (`LargeNote`); `openLargeNoteAnyway()` reads it whole.
    public internal(set) var isLargePreview = false
    /// True while only the beginning of a file larger than `LargeNote.maximumReadBytes` was
    /// read; opened anyway, such a file stays read-only.
    public internal(set) var isBeginningOnly = false
    /// The user chose to edit this note however large it is.
    var allowsLargeText = false
    /// How the file's bytes map to the editor's text (line endings, byte-order mark).
    public internal(set) var encoding = NoteEncoding()
    /// The file's modification date as last read or written.
    public internal(set) var fileModificationDate: Date?
    /// The last failure (the red light's reason); nil once a save succeeds.
    public internal(set) var lastError: Error?
    /// True after another program deleted or moved the file away; the text is still here.
    public internal(set) var fileIsMissing = false {
        didSet { if fileIsMissing != oldValue { publish(.statusChanged) } }
    }
    /// The other versions the user has to decide about (a change on disk that could not be
    /// merged, sync clients' conflict copies); `.inConflict` while there are any.
    public internal(set) var otherVersions: [ConflictingVersion] = [] {
        didSet {
            if otherVersions.isEmpty { state.remove(.inConflict) } else { state.insert(.inConflict) }
            if otherVersions != oldValue { publish(.statusChanged) }
        }
    }
    /// The text as last read from or written to the file: the base of a three-way merge
    /// (nil when the file is not UTF-8 text).
    var savedText: String?
    /// Errors met while no one could be asked (quitting, a move); shown later (#4).
    public internal(set) var deferredErrors: [Error] = []

    /// The title shown for the note: its first line.
    public var displayName: String { NoteText.title(of: currentText()) }

    /// The current text, taken from the editor when one provides it.
    func currentText() -> String {
        if let contentProvider, !isReadOnly, !state.contains(.closed) { text = contentProvider() }
        return text
    }
    public var isReadOnly: Bool { readOnlyReason != nil }

    // Change counting. Every edit (done, undone, redone) makes a new generation; a save
    // remembers the generation it wrote. Undoing back to the saved text still counts as
    // unsaved: Notula never claims "saved" when it cannot be sure.
    var generation = 0
    var savedGeneration = 0
    public var hasUnsavedChanges: Bool { generation != savedGeneration }

    var editingDisabledCount = 0
    let queue: DispatchQueue
    let drafts: RecoveryDrafts
    /// Where the note's past goes (`NoteHistory`): at open and close, every few minutes of
    /// editing, and before anything replaces the text.
    let history: NoteHistory
    let localWrites: LocalWrites
    var watcher: FolderWatcher?
    /// Looks at the file every few seconds when its folder cannot be watched.
    var pollTimer: DispatchSourceTimer?
    /// The file's identity as this document last read or wrote it: set by the work on `queue`
    /// (reads and writes) and read there before overwriting. Behind a mutex: the queue reaches
    /// it while the rest of the document belongs to the main actor.
    nonisolated var diskIdentity: FileIdentity? {
        get { diskIdentityStore.withLock { $0 } }
        set { diskIdentityStore.withLock { $0 = newValue } }
    }
    private let diskIdentityStore = Mutex<FileIdentity?>(nil)
    var autosaver: AutosaveScheduler?
    /// Failed saves in a row (the retry delay grows with them), and the retry waiting to run.
    var failedSaveRetries = 0
    var retryWork: DispatchWorkItem?
    /// The draft journal's next write, while typing goes on.
    var draftWork: DispatchWorkItem?
    /// How long typed words may exist only in memory: a crash loses at most this much typing.
    public static let draftJournalDelay: TimeInterval = 0.8
    private var observers: [UUID: (NoteDocument, DocumentEvent) -> Void] = [:]

    /// Errors go here when the user can be asked; call the completion with whether the
    /// chosen recovery worked. (The responder chain of #4 plugs in here.)
    public var errorPresenter: ((NoteDocument, Error, @escaping @MainActor (Bool) -> Void) -> Void)?

    public init(fileURL: URL, drafts: RecoveryDrafts = .standard, history: NoteHistory = .standard, localWrites: LocalWrites = .shared,
                autosaveDelay: TimeInterval = 1, autosaveMaximumDelay: TimeInterval = 5) {
        self.fileURL = fileURL
        self.drafts = drafts
        self.history = history
        self.localWrites = localWrites
        queue = DocumentQueues.queue(for: fileURL)
        autosaver = AutosaveScheduler(idleDelay: autosaveDelay, maximumDelay: autosaveMaximumDelay) { [weak self] in self?.autosave() }
    }

    // MARK: Change counting

    /// Records an edit, an undo, a redo, or that the text now matches the file.
    public func updateChangeCount(_ kind: DocumentChangeKind) {
        let wasUnsaved = hasUnsavedChanges
        switch kind {
        case .done, .undone, .redone:
            generation += 1
            autosaver?.noteChanged()
            scheduleDraftJournal()
        case .cleared:
            savedGeneration = generation
        }
        if hasUnsavedChanges != wasUnsaved { publish(.statusChanged) }
    }

    /// The edit a save starts from; pass it back when the save ends.
    public struct ChangeCountToken: Equatable, Sendable { let generation: Int }

    public func changeCountToken() -> ChangeCountToken { ChangeCountToken(generation: generation) }

    /// Marks as saved what the token covered; later edits stay unsaved.
    public func updateChangeCount(withToken token: ChangeCountToken) {
        let wasUnsaved = hasUnsavedChanges
        savedGeneration = max(savedGeneration, token.generation)
        if hasUnsavedChanges != wasUnsaved { publish(.statusChanged) }
    }

    /// The user changed the text: take it and count one edit of `kind`.
    public func edit(_ newText: String, kind: DocumentChangeKind = .done) {
        guard !state.contains(.editingDisabled), !state.contains(.closed), newText != text else { return }
        text = newText
        updateChangeCount(kind)
    }

    // MARK: Draft journal

    /// Autosave waits for a pause (at most 5 s while typing goes on); a crash or power loss
    /// then would lose everything typed since. So at most `draftJournalDelay` after an edit the
    /// text goes to a recovery draft (written off the main thread), even while typing continues;
    /// a save removes it once the file holds the text, and the next start offers what is left.
    func scheduleDraftJournal() {
        guard draftWork == nil, !isReadOnly, !state.contains(.closed) else { return }
        let work = DispatchWorkItem { [weak self] in
            guard let self else { return }
            self.draftWork = nil
            guard self.hasUnsavedChanges, !self.isReadOnly, !self.state.contains(.closed) else { return }
            self.keepDraft(reason: "typing")
        }
        draftWork = work
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.draftJournalDelay, execute: work)
    }

    // MARK: Editing enabled

    /// The editor cannot show the text exactly (found after loading it): read-only, never
    /// written, with `reason` in the banner.
    public func becomeReadOnly(because reason: String) {
        autosaver?.cancel()
        readOnlyReason = reason
        savedText = nil
        state.insert(.editingDisabled)
        publish(.statusChanged)
    }

    /// Stops edits (around revert, reload, a move). Calls nest.
    public func disableEditing() {
        editingDisabledCount += 1
        state.insert(.editingDisabled)
    }

    public func enableEditing() {
        editingDisabledCount = max(0, editingDisabledCount - 1)
        if editingDisabledCount == 0 && !isReadOnly { state.remove(.editingDisabled) }
    }

    // MARK: Observers

    /// Adds an observer called on the main queue for every event; keep the token to remove it.
    @discardableResult
    public func addObserver(_ handler: @escaping (NoteDocument, DocumentEvent) -> Void) -> UUID {
        let token = UUID()
        observers[token] = handler
        return token
    }

    public func removeObserver(_ token: UUID) { observers[token] = nil }

    func publish(_ event: DocumentEvent) {
        for handler in observers.values { handler(self, event) }
    }
}

/// What a document tells its observers.
public enum DocumentEvent: Equatable, Sendable {
    /// State, unsaved flag, error or missing file changed: the status light looks again.
    case statusChanged
    /// The text was replaced from disk (reload, revert): editors show `text` again.
    case textReplaced
    /// A save finished and wrote the file.
    case saved
    /// Changes made elsewhere were merged with the unsaved edits (a brief notice says so).
    case merged
}
