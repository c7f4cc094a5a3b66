import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Another program replaces the note the instant a save's temporary file appears (it watches
/// the folder with inotify), 200 times: its text is never overwritten. Either it landed before
/// the save's exchange — the save puts it back and the document shows a conflict, its own text
/// still in memory — or after, as a later write the document then reloads.
final class SaveRaceTests: DocumentTestCase, @unchecked Sendable {
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testAWriterRacingEverySaveIsNeverOverwritten() throws {
        try MainActor.assumeIsolated {
            let writer = try RacingWriter(folder: folder.url)
            defer { writer.stop() }
            var conflicts = 0, later = 0
            for round in 0..<200 {
                let name = "race-\(round).md"
                let document = try openDocument(name, "base \(round)\n")
                let theirs = "theirs \(round), another program's\n", mine = "mine \(round)\n"
                writer.arm(note: document.fileURL, text: theirs)
                document.edit(mine)
                let saved = save(document)
                XCTAssertTrue(writer.waitFired(), "round \(round): the writer never saw a temporary")
                waitUntil("round \(round): the document settles on the other program's text") {
                    document.hasDiskConflict || (document.text == theirs && !document.hasUnsavedChanges)
                }
                XCTAssertEqual(contents(document.fileURL), theirs, "round \(round): the other program's text was overwritten")
                if document.hasDiskConflict {
                    conflicts += 1
                    XCTAssertFalse(saved, "round \(round): a save that met another version said it saved")
                    XCTAssertEqual(document.currentText(), mine, "round \(round): the typed text is gone from the editor")
                    XCTAssertEqual(document.otherVersions.first?.text, theirs)
                } else {
                    later += 1
                }
                XCTAssertTrue(((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? [])
                    .allSatisfy { !$0.hasPrefix(".notula-tmp-") || $0.isEmpty }, "round \(round): a temporary was left")
                let closed = expectation(description: "closed")
                document.close { _ in closed.fulfill() }
                wait(for: [closed], timeout: 5)
            }
            print("SaveRaceTests: \(conflicts) saves met the other version (conflict), \(later) were followed by it")
            XCTAssertGreaterThan(conflicts, 0, "the race was never met: the test proves nothing")
        }
    }
}

/// Another process's behaviour in this one: on the first `.notula-tmp-` file created in the
/// folder after `arm`, replaces the armed note atomically (its own temporary, then rename).
private final class RacingWriter: @unchecked Sendable {
    private let instance: Int32
    private let lock = NSLock()
    private var armed: (note: URL, text: String)?
    private let fired = DispatchSemaphore(value: 0)
    private var running = true

    init(folder: URL) throws {
        instance = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard instance >= 0, inotify_add_watch(instance, folder.path, UInt32(IN_CREATE)) >= 0 else {
            throw StorageError(.listFolder, path: folder.path)
        }
        Thread.detachNewThread { [self] in self.run() }
    }

    func arm(note: URL, text: String) {
        lock.withLock { armed = (note, text) }
    }

    func waitFired() -> Bool { fired.wait(timeout: .now() + 5) == .success }

    func stop() {
        lock.withLock { running = false }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while lock.withLock({ running }) {
            var poller = pollfd(fd: instance, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(instance, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            var sawTemporary = false
            while offset < count {
                let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self).hasPrefix(".notula-tmp-") { sawTemporary = true }
                offset += 16 + length
            }
            guard sawTemporary, let (note, text) = lock.withLock({ () -> (URL, String)? in
                defer { armed = nil }
                return armed
            }) else { continue }
            let mine = note.deletingLastPathComponent().appendingPathComponent(".other-writer-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: mine.path, contents: Data(text.utf8))
            rename(mine.path, note.path)
            fired.signal()
        }
        close(instance)
    }
}
