import Foundation
import Glibc
import TestSupport
import XCTest
@testable import NotesCore

/// The torture's live library: a `LiveLibrary` with its index in memory follows the library
/// through its own watcher, as the window's does, while `TortureSearchTraffic` searches it.
/// After every step the index, and the list made from the live library's events alone, equal
/// what a fresh listing of the disk finds.
extension DocumentTortureTests {
    /// What a row shows of a note (the index's row number aside).
    struct Row: Equatable, CustomStringConvertible {
        let title: String
        let preview: String
        let modified: Date
        let isValidText: Bool
        let mightBeLarge: Bool
        let unreadableReason: String?
        let conflictCopies: [String]

        init(_ note: NoteSummary) {
            title = note.title
            preview = note.preview
            modified = note.modified
            isValidText = note.isValidText
            mightBeLarge = note.mightBeLarge
            unreadableReason = note.unreadableReason
            conflictCopies = note.conflictCopies.sorted()
        }

        var description: String {
            "\(title.debugDescription) \(preview.prefix(20).debugDescription) \(modified.timeIntervalSince1970)"
                + (conflictCopies.isEmpty ? "" : " copies \(conflictCopies)") + (isValidText ? "" : " invalid")
        }
    }

    struct LiveLibraryDidNotOpen: Error {
        let result: String
    }

    func startLiveLibrary() throws {
        syncFolder = root.file("watch-sync")
        try FileManager.default.createDirectory(at: syncFolder, withIntermediateDirectories: true)
        syncWatcher = try FolderWatcher(folder: syncFolder) { [unowned self] changes in
            syncNamesSeen.formUnion(changes.map(\.name))
        }
        let live = LiveLibrary(folder: library, createsFolder: false, indexFolder: nil)
        live.onEvent = { [unowned self] event in libraryDid(event) }
        self.live = live
        var opened: Result<[String], Error>?
        live.open { opened = $0 }
        guard MainQueue.run(until: { opened != nil }, timeout: 30), case .success = opened, let index = live.index else {
            throw LiveLibraryDidNotOpen(result: "\(String(describing: opened))")
        }
        XCTAssertNil(index.fileURL, "the torture's index is in memory")
        let traffic = TortureSearchTraffic(index: index, seed: seed)
        traffic.start()
        self.traffic = traffic
    }

    /// Stops the searches, closes the index (its file in memory removed) and lets go of the
    /// library, so no thread of it outlives the test.
    func stopLiveLibrary() {
        traffic?.stop()
        reportSearchFailures()
        traffic = nil
        live?.close()
        live = nil
        listed = [:]
        syncWatcher = nil
    }

    /// The window's side: the list made from the live library's events, nothing else.
    private func libraryDid(_ event: LiveLibrary.Event) {
        switch event {
        case .listed(let notes):
            listed = Dictionary(notes.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        case .changed(let changes):
            if let every = changes.everyNote { listed = Dictionary(every.map { ($0.id, $0) }, uniquingKeysWith: { $1 }) }
            for id in changes.removed { listed[id] = nil }  // removed first, as the list applies them
            for note in changes.upserted { listed[note.id] = note }
        case .notebooks, .reconciled, .indexing, .indexed, .unavailable, .degraded:
            break
        }
    }

    /// Returns once the live library has heard of every change made so far and its index has
    /// taken them in: a file made in the watched sync folder is reported after them (one inotify
    /// instance, read in order), and a refresh queued after theirs on the index's queue ends
    /// after them.
    func syncLiveLibrary() {
        syncNamesSeen.removeAll()
        let name = "sync-\(step)"
        let file = syncFolder.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: file, contents: nil) else { return fail("\(file) could not be made") }
        unlink(file)
        guard MainQueue.run(until: { syncNamesSeen.contains(name) }, timeout: 10, interval: 0.0002) else {
            return fail("seed \(seed) step \(step): the watcher never reported \(name)")
        }
        var refreshed = false
        live.refresh([]) { _ in refreshed = true }
        if !MainQueue.run(until: { refreshed }, timeout: 30, interval: 0.0002) { fail("seed \(seed) step \(step): the index's queue hung") }
    }

    /// The index and the list equal the disk; no search found a note for a word no note holds.
    /// Every note of the torture is written by a rename (saves, other programs, moves, the
    /// Trash) or made or removed, so a step that changed no folder of the library changed no
    /// note: the listing is then compared every 16th step only (the index had nothing to hear).
    func checkLiveLibrary() {
        reportSearchFailures()
        if let known = diskStamps, step % 16 != 0, !foldersChanged(since: known) { return }
        let (onDisk, stamps) = listDisk()
        if stamps != diskStamps { syncLiveLibrary() }
        diskStamps = stamps
        checkedListings += 1
        let indexed = Self.rows(traffic?.withoutSearches { live.index?.summaries() ?? [] } ?? [])
        if indexed != onDisk { fail("seed \(seed) step \(step): the index is not the disk: \(Self.difference(indexed, onDisk))") }
        let shown = Self.rows(Array(listed.values))
        if shown != onDisk { fail("seed \(seed) step \(step): the list is not the disk: \(Self.difference(shown, onDisk))") }
        reportSearchFailures()
    }

    /// Whether an entry was added, removed or renamed in a folder of the library (the folder's
    /// own identity changed), or a notebook came or went.
    private func foldersChanged(since known: [String: FileStamp]) -> Bool {
        var info = stat()
        for (key, stamp) in known where key.hasSuffix("/") {
            let folder = key == "/" ? library.path : library.appendingPathComponent(String(key.dropLast())).path
            if lstat(folder, &info) != 0 || FileStamp(info) != stamp { return true }
        }
        return false
    }

    /// A note file's identity: any write, rename or replacement changes it.
    struct FileStamp: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, mode: UInt32
        let modified: Int64, changed: Int64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            mode = info.st_mode
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }
    }

    /// The library as a fresh listing finds it, by `NoteLibrary.scan`'s rules (notebooks, each
    /// conflict copy with its note or on its own, only regular files), and the identity of every
    /// note-named entry and notebook. A file is read again only when its identity changed since
    /// the last listing (a full `scan` at every step would read every note, orphaned conflict
    /// copies included, and take most of the test's time).
    func listDisk() -> (rows: [String: Row], stamps: [String: FileStamp]) {
        let notes = NoteLibrary(folder: library)
        var rows: [String: Row] = [:], stamps: [String: FileStamp] = [:], read: [String: (FileStamp, NoteSummary)] = [:]
        for notebook in [""] + notes.notebooks() {
            let folder = notebook.isEmpty ? library.path : library.appendingPathComponent(notebook).path
            var info = stat()
            if lstat(folder, &info) == 0 { stamps[notebook + "/"] = FileStamp(info) }
            let (own, copies) = NoteLibrary.classify(((try? FolderEntries.read(folder)) ?? []).map(\.name))
            for name in own + copies.values.joined() {
                let id = notebook.isEmpty ? name : "\(notebook)/\(name)"
                guard lstat(folder + "/" + name, &info) == 0 else { continue }
                stamps[id] = FileStamp(info)
            }
            for name in own {
                let id = notebook.isEmpty ? name : "\(notebook)/\(name)"
                guard let stamp = stamps[id], stamp.mode & S_IFMT == S_IFREG else { continue }
                var note: NoteSummary
                if let (known, summary) = diskReads[id], known == stamp {
                    note = summary
                } else {
                    do {
                        note = try notes.summary(ofFileNamed: id)
                    } catch let error as StorageError where error.code == EACCES || error.code == EPERM || error.code == EIO {
                        note = notes.unreadableSummary(id, error: error)
                    } catch {
                        continue
                    }
                }
                read[id] = (stamp, note)
                note.conflictCopies = copies[name] ?? []
                rows[id] = Row(note)
            }
        }
        diskReads = read
        return (rows, stamps)
    }

    private func reportSearchFailures() {
        for failure in traffic?.takeFailures() ?? [] { fail("seed \(seed) step \(step): \(failure)") }
    }

    static func rows(_ notes: [NoteSummary]) -> [String: Row] {
        Dictionary(notes.map { ($0.id, Row($0)) }, uniquingKeysWith: { first, _ in first })
    }

    static func difference(_ seen: [String: Row], _ disk: [String: Row]) -> String {
        var lines: [String] = []
        for id in Set(seen.keys).union(disk.keys).sorted() where seen[id] != disk[id] {
            lines.append("\(id): listed \(seen[id].map(String.init(describing:)) ?? "no row"), on disk \(disk[id].map(String.init(describing:)) ?? "no file")")
        }
        return lines.joined(separator: "; ")
    }
}
