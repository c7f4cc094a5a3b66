import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A seeded, model-based torture test of the document life-cycle (issue #12): random user
/// actions (type, paste, save, switch, close and reopen, create, delete, restore, move to a
/// notebook) interleaved with other programs' changes (rewrite, delete, conflict copies) and
/// faults (a read-only disk, a full disk), on a real tmpfs when it can be mounted; some notes and
/// a notebook are named with bytes that are not UTF-8. Notes are LF
/// or CRLF (Windows) files; pastes bring "\r\n", "\r" and mixed line breaks, made as the
/// editor makes them (`LineBreaks.guarded`). A live library (`LiveLibrary`, its index in
/// memory) follows every change through its watcher while another thread searches it and
/// interrupts the searches (`TortureSearchTraffic`). After every step: every text the user
/// typed is in its note's file, in the open editor or in a recovery draft; no file outside the
/// library is touched; no note file holds a text that was never whole, nor "\r\r\n", nor a
/// line break other than its note's; the index and the list made from the live library's
/// events equal the disk; no search found a note for a word no note holds.
/// NOTULA_TORTURE_SEED replays a run; NOTULA_TORTURE_STEPS sets its length (default 10,000).
@MainActor
final class DocumentTortureTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    var random = SeededRandom(seed: 1)
    var seed: UInt64 = 1
    var root: TemporaryFolder!
    private var disk: SmallDisk?
    var library: URL!
    private var outside: URL!
    private var drafts: RecoveryDrafts!
    private var draftTexts: DraftTexts!
    private var history: NoteHistory!
    private var trash: LibraryTrash!
    /// What the user last typed (or saw, after another program's change) in each note, by path.
    var expected: [String: String] = [:]
    /// The line breaks of each note's file, by path: its creator's (LF or CRLF), kept by every
    /// save and by the other programs here.
    var lineEndings: [String: NoteEncoding.LineEnding] = [:]
    /// Trashed notes: the Trash item and the text it holds.
    private var trashed: [(item: LibraryTrash.Item, text: String, lineEnding: NoteEncoding.LineEnding?)] = []
    var open: (path: String, document: NoteDocument)?
    /// Every text a note file may legitimately hold (typed states, merges, other programs' writes).
    var wholeTexts: Set<String> = [""]
    private var readOnly = false
    private var filler: URL?
    private var outsideSnapshot: [String: Data] = [:]
    var step = 0
    /// Notes made with names whose bytes are not UTF-8.
    private var oddNames = 0
    /// The last actions, said when an invariant fails.
    private var trail: [String] = []
    /// The library as the window has it: its index in memory, kept by its watcher.
    var live: LiveLibrary!
    /// The list as the window would show it, made from the live library's events only.
    var listed: [String: NoteSummary] = [:]
    /// A folder outside the library, watched on the same inotify instance: a file made there
    /// is reported after every change made before it in the library (`syncLiveLibrary`).
    var syncFolder: URL!
    var syncWatcher: FolderWatcher?
    var syncNamesSeen: Set<String> = []
    var traffic: TortureSearchTraffic?
    /// The identities of the library's entries at the last check, and what was read of each
    /// note file then (`listDisk`).
    var diskStamps: [String: FileStamp]?
    var diskReads: [String: (FileStamp, NoteSummary)] = [:]
    /// How often the listings were compared, and pastes were made into LF and CRLF notes.
    var checkedListings = 0
    var pasteCounts = (lf: 0, crlf: 0)

    func note(_ action: String) {
        trail.append("\(step): \(action)")
        if trail.count > 12 { trail.removeFirst() }
    }

    nonisolated func testRandomLivesOfNotesNeverLoseATypedWord() throws {
        try MainActor.assumeIsolated {
            let environment = ProcessInfo.processInfo.environment
            seed = environment["NOTULA_TORTURE_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
            let steps = environment["NOTULA_TORTURE_STEPS"].flatMap(Int.init) ?? 10_000
            print("DocumentTortureTests seed: \(seed) (NOTULA_TORTURE_SEED=\(seed) replays it)")
            random = SeededRandom(seed: seed)
            root = TemporaryFolder()
            disk = try? SmallDisk(kilobytes: 2048)
            defer { disk = nil }  // unmounted now: XCTest keeps the test object to the end of the run
            library = (disk?.url ?? root.url).appendingPathComponent("Notes")
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
            outside = root.file("Outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("not a note of the library".utf8).write(to: outside.appendingPathComponent("elsewhere.md"))
            outsideSnapshot = snapshot(outside)
            drafts = RecoveryDrafts(folder: root.file("drafts"))
            draftTexts = DraftTexts(drafts)
            history = NoteHistory(folder: root.file("history"))
            trash = LibraryTrash(library: library)
            for index in 0..<4 { try create(text: "Note \(index)\n") }
            try startLiveLibrary()
            defer { stopLiveLibrary() }  // its threads stop however the run ends
            let start = Date()
            for index in 0..<steps {
                step = index
                act()
                settle()
                try checkInvariants()
                checkLiveLibrary()
                if testRun?.failureCount ?? 0 > 0 { break }
            }
            if let open { close(open.document) }
            setReadOnly(false)
            print("DocumentTortureTests: \(step + 1) steps in \(String(format: "%.1f", Date().timeIntervalSince(start))) s, "
                  + "\(expected.count) notes (\(expected.keys.filter { lineEndings[$0] == .crlf }.count) CRLF), \(trashed.count) in the Trash, "
                  + "\(oddNames) named in bytes that are not UTF-8, \(pasteCounts.lf) pastes into LF notes and \(pasteCounts.crlf) into CRLF ones, \(listed.count) notes listed, "
                  + "listings compared \(checkedListings) times, \(traffic?.summary ?? "no searches")\(disk == nil ? " (no tmpfs: no disk faults)" : "")")
        }
    }

    // MARK: Actions

    private func act() {
        if expected.count < 3 { try? create(text: "Note \(step)\n") }
        let roll = random.next(upTo: 100)
        note("roll \(roll), open \(open?.path ?? "-") \(open.map { d in "state \(d.document.state.rawValue) unsaved \(d.document.hasUnsavedChanges) ro \(d.document.isReadOnly) missing \(d.document.fileIsMissing) text \(d.document.text.suffix(12).debugDescription)" } ?? "")"
             + (readOnly ? " disk read-only" : "") + (filler != nil ? " disk full" : ""))
        switch roll {
        case 0..<32: type()
        case 32..<40: paste()
        case 40..<47: if let open { open.document.save() }
        case 47..<60: switchNote()
        case 60..<63: try? create(text: random.chance(0.5) ? "" : "Dropped in \(step)\n")  // a new note, or another program's
        case 63..<68: deleteNote()
        case 68..<71: restore()
        case 71..<75: moveToNotebook()
        case 75..<84: rewriteElsewhere()
        case 84..<87: deleteElsewhere()
        case 87..<90: conflictCopy()
        case 90..<95: if let open { close(open.document); self.open = nil }
        case 95..<99: fault()
        default: if random.chance(0.5) { crashAWriter() } else { fault() }
        }
    }

    /// Another process saving a note is killed with SIGKILL at a random instant: the note
    /// holds one whole version, the old or a new one.
    private func crashAWriter() {
        guard let path = randomPath(), open?.path != path else { return }
        let writer = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("notula-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: writer.path) else {
            return XCTFail("build the helper first: swift build --build-tests (\(writer.path))")
        }
        let url = library.appendingPathComponent(path)
        let before = (try? FileIdentity.read(url)).map { NoteEncoding.decode($0.data).text }
        let process = Process()
        process.executableURL = writer
        process.arguments = [url.path, String(step * 1000)]
        process.environment = ["XDG_STATE_HOME": root.file("crash-state").path, "HOME": root.url.path]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return }
        // "ready" (or a failure on a faulty disk), waited for at most 5 s: nothing may hang here.
        let answered = DispatchSemaphore(value: 0)
        let reader = output.fileHandleForReading
        DispatchQueue.global().async {
            _ = reader.availableData
            answered.signal()
        }
        if answered.wait(timeout: .now() + 5) == .timedOut { note("crash writer did not answer") }
        usleep(UInt32(random.next(upTo: 20_000)))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let after = (try? FileIdentity.read(url)).map { NoteEncoding.decode($0.data).text }
        note("crash writer on \(path) killed (\(process.terminationReason == .uncaughtSignal ? "SIGKILL" : "exited")): "
             + "\(before?.prefix(16).debugDescription ?? "nil") → \(after?.prefix(16).debugDescription ?? "nil")")
        guard let after else {
            if before != nil { fail("seed \(seed) step \(step): \(path) vanished after SIGKILL") }
            return  // there was no file (its words are in a draft): the writer could not open it
        }
        guard after != before else { return }
        guard CrashWriterText.completeVersion(in: after) != nil else {
            return fail("seed \(seed) step \(step): SIGKILL tore \(path): \(after.utf8.count) bytes")
        }
        wholeTexts.insert(after)
        expected[path] = after
    }

    private func type() {
        guard let (path, document) = open, !document.state.contains(.editingDisabled), !document.state.contains(.closed) else { return }
        let words = ["apples", "line\n", "Café", "😀", "more ", "\n", "- [ ] task\n", "ünïcode "]
        let text = document.text + words[random.next(upTo: words.count)]
        document.edit(text)
        expected[path] = text
        wholeTexts.insert(text)
    }

    private func switchNote() {
        if let open { close(open.document) }
        open = nil
        let paths = expected.keys.sorted()
        guard !paths.isEmpty else { return }
        let path = paths[random.next(upTo: paths.count)]
        let document = NoteDocument(fileURL: library.appendingPathComponent(path), drafts: drafts, history: history,
                                    localWrites: LocalWrites(), autosaveDelay: 3600, autosaveMaximumDelay: 3600)
        document.errorPresenter = { _, _, done in done(false) }
        var opened: Bool?
        document.open { opened = $0 }
        guard MainQueue.run(until: { opened != nil }, timeout: 10) else { return fail("seed \(seed) step \(step): open hung") }
        if opened == true, document.isLargePreview {
            // Shown in the safe mode (its beginning only): the note is its file.
            open = (path, document)
            expected[path] = (try? FileIdentity.read(document.fileURL)).map { NoteEncoding.decode($0.data).text }
        } else if opened == true {
            open = (path, document)
            // What the user sees now is what the file holds; the words typed before are kept in a draft.
            if document.text != expected[path], let text = expected[path], !inDraft(text, path: path) {
                fail("seed \(seed) step \(step): reopening \(path) shows \(document.text.debugDescription) and "
                        + "the typed \(text.debugDescription) is nowhere")
            }
            expected[path] = document.text
        }
    }

    private func close(_ document: NoteDocument) {
        var closed = false
        document.close { _ in closed = true }
        if !MainQueue.run(until: { closed }, timeout: 15) { fail("seed \(seed) step \(step): close hung") }
    }

    /// A new note; one with text is a Windows (CRLF) file half of the time. Another program's
    /// note ("Dropped in") is named with bytes that are not UTF-8 a third of the time, in the
    /// library or a notebook whose name is not UTF-8 either.
    private func create(text: String) throws {
        let id: String
        if text.hasPrefix("Dropped"), random.chance(0.33) {
            let folder = random.chance(0.5) ? "" : Self.oddNotebook + "/"
            try FileSystem.makeFolders(library.appendingPathComponent(folder).path)
            id = folder + PathBytes.string(Array("dropped \(step) caf".utf8) + [random.chance(0.5) ? 0xE9 : 0xFF] + Array(".md".utf8))
            try AtomicFileWriter.write(Data(), to: library.appendingPathComponent(id))
            oddNames += 1
        } else {
            id = try NoteLibrary(folder: library).createNote(now: Date().addingTimeInterval(Double(random.next(upTo: 1_000_000)))).id
        }
        let lineEnding: NoteEncoding.LineEnding = !text.isEmpty && random.chance(0.5) ? .crlf : .lf
        if !text.isEmpty { try AtomicFileWriter.write(NoteEncoding(lineEnding: lineEnding).encode(text), to: library.appendingPathComponent(id)) }
        expected[id] = text
        lineEndings[id] = lineEnding
        wholeTexts.insert(text)
    }

    /// A notebook whose name's bytes are not UTF-8 ("Book\xff").
    static let oddNotebook = PathBytes.string(Array("Book".utf8) + [0xFF])

    private func deleteNote() {
        guard let path = randomPath() else { return }
        if open?.path == path, let document = open?.document {
            var answer: Error??
            document.saveBeforeLeaving { answer = .some($0) }
            _ = MainQueue.run(until: { answer != nil }, timeout: 15)
            guard case .some(.none) = answer else { return }  // not saved: nothing goes to the Trash
            close(document)
            open = nil
        }
        guard let text = expected[path], let item = try? trash.trash(relativePath: path) else { return }
        let inFile = RegularFile.contents(of: item.url, followLinks: false).map { NoteEncoding.decode($0).text } ?? ""
        if inFile != text && !inDraft(text, path: path) {
            fail("seed \(seed) step \(step): the Trash got \(inFile.debugDescription), the typed \(text.debugDescription) is nowhere")
        }
        expected[path] = nil
        trashed.append((item, inFile, lineEndings[path]))
    }

    private func restore() {
        guard !trashed.isEmpty else { return }
        let index = random.next(upTo: trashed.count)
        let (item, text, lineEnding) = trashed[index]
        guard let path = try? trash.restore(item) else { return }
        trashed.remove(at: index)
        expected[path] = text
        lineEndings[path] = lineEnding
    }

    private func moveToNotebook() {
        guard let path = randomPath(), open?.path != path else { return }
        let notebook = ["", "Work", "Home/Kitchen", Self.oddNotebook][random.next(upTo: 4)]
        try? FileSystem.makeFolders(library.appendingPathComponent(notebook).path)
        guard let newPath = try? Notebooks(library: library).move(note: path, to: notebook) else { return }
        expected[newPath] = expected.removeValue(forKey: path)
        lineEndings[newPath] = lineEndings.removeValue(forKey: path)
    }

    private func rewriteElsewhere() {
        guard let path = randomPath() else { return }
        let text = "Changed elsewhere \(random.next(upTo: 1000))\n" + (expected[path] ?? "")
        let url = library.appendingPathComponent(path)
        // Written with the note's line breaks, as an editor elsewhere keeps them.
        guard (try? AtomicFileWriter.write(NoteEncoding(lineEnding: lineEndings[path] ?? .lf).encode(text), to: url)) != nil else { return }
        wholeTexts.insert(text)
        if let (openPath, document) = open, openPath == path {
            document.checkDisk()
            settle()
            // Merged, reloaded or in conflict: what the editor shows is what the user has now;
            // in conflict the typed text stays in the editor (and a draft).
            wholeTexts.insert(document.text)
            if !document.hasDiskConflict { expected[path] = document.isLargePreview ? text : document.text }
        } else {
            expected[path] = text
        }
    }

    private func deleteElsewhere() {
        guard let path = randomPath() else { return }
        guard unlink(library.appendingPathComponent(path).path) == 0 else { return }
        note("deleted elsewhere: \(path)")
        if let (openPath, document) = open, openPath == path {
            document.checkDisk()  // the text stays in the editor and a draft; the user may save it again
            settle()
            // A read-only note keeps no draft: another program deleted what it could not change.
            if document.isReadOnly { expected[path] = nil }
            if random.chance(0.5) {
                var saved: Bool?
                document.saveAgain { saved = $0 }
                _ = MainQueue.run(until: { saved != nil }, timeout: 10)
            }
        } else {
            expected[path] = nil  // another program deleted it: not ours to keep
        }
    }

    private func conflictCopy() {
        guard let path = randomPath() else { return }
        let url = library.appendingPathComponent(path)
        let copy = url.deletingPathExtension().lastPathComponent + ".sync-conflict-20260101-101010-ABCDEF7.md"
        _ = try? AtomicFileWriter.write(Data("Their version\n".utf8), to: url.deletingLastPathComponent().appendingPathComponent(copy))
        open?.document.refreshConflictCopies()
    }

    private func fault() {
        guard let disk else { return }
        if random.chance(0.5) {
            setReadOnly(!readOnly)
        } else if let filler {
            unlink(filler.path)
            self.filler = nil
        } else if !readOnly {
            let url = disk.url.appendingPathComponent(".filler")
            _ = FileManager.default.createFile(atPath: url.path, contents: Data(count: 4 * 1024 * 1024))  // fills the disk (it may not all fit)
            filler = url
        }
    }

    private func setReadOnly(_ on: Bool) {
        guard let disk, on != readOnly else { return }
        if on { try? disk.remountReadOnly() } else { try? disk.remountWritable() }
        readOnly = on
    }

    // MARK: Invariants

    private func checkInvariants() throws {
        for (path, text) in expected {
            let url = library.appendingPathComponent(path)
            let bytes = try? FileIdentity.read(url).data
            if let bytes { checkLineBreaks(bytes, of: path) }
            let inFile = bytes.map { NoteEncoding.decode($0).text }
            let inEditor = open?.path == path && open?.document.isLargePreview == false ? open?.document.text : nil
            if inFile != text && inEditor != text && !inDraft(text, path: path) {
                fail("seed \(seed) step \(step): \(path): typed \(text.debugDescription) is not in the file "
                        + "(\(inFile?.debugDescription ?? "none")), the editor or a draft; drafts: "
                        + drafts.all().map { "\(($0.notePath as NSString).lastPathComponent) \($0.reason) \($0.text.debugDescription)" }.joined(separator: "; "))
            }
            if let inFile, !wholeTexts.contains(inFile), !inFile.hasPrefix("Changed elsewhere") {
                fail("seed \(seed) step \(step): \(path) holds a text that was never whole: \(inFile.debugDescription)")
            }
        }
        if step % 100 == 0, snapshot(outside) != outsideSnapshot {
            fail("seed \(seed) step \(step): a file outside the library changed")
        }
    }

    /// Fails with the seed, the step and the last actions.
    func fail(_ message: String) {
        XCTFail(message + "\nlast steps:\n" + trail.joined(separator: "\n"))
    }

    /// Whether a recovery draft holds `text` (under any path: a draft names the note where it
    /// was when its words could not be written, and the note may have moved since).
    private func inDraft(_ text: String, path: String) -> Bool {
        draftTexts.contains(text)
    }

    // MARK: Helpers

    private func randomPath() -> String? {
        let paths = expected.keys.sorted()
        return paths.isEmpty ? nil : paths[random.next(upTo: paths.count)]
    }

    /// Runs the main queue until the open document's queue has nothing left for it.
    func settle() {
        for _ in 0..<2 {
            let done = Shared(false)
            if let queue = open?.document.queue {
                queue.async { DispatchQueue.main.async { done.value = true } }
            } else {
                DispatchQueue.main.async { done.value = true }
            }
            _ = MainQueue.run(until: { done.value }, timeout: 10, interval: 0.0002)
        }
    }

    private func snapshot(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            result[name] = try? Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }
}
