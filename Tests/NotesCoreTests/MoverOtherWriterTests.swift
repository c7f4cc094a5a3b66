import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Another program writes the notes being moved, at the worst instants: just before a source
/// is taken away it replaces that note, re-creates (by an append) a note already taken away,
/// and drops a new note in. Every byte it wrote is in the new folder afterwards; nothing is
/// left in the old one. On one file system (hard links) and across two (copies).
final class MoverOtherWriterTests: XCTestCase {
    private let state = TemporaryFolder()

    func testOnOneFileSystemEveryWriteArrives() throws {
        let root = TemporaryFolder()
        try race(from: root.url.appendingPathComponent("Local"), to: root.url.appendingPathComponent("Sync"))
    }

    func testAcrossFileSystemsEveryWriteArrives() throws {
        let disk = try SmallDisk(kilobytes: 2048)
        let root = TemporaryFolder()
        try race(from: disk.url.appendingPathComponent("Local"), to: root.url.appendingPathComponent("Sync"))
    }

    private func race(from source: URL, to destination: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        try FileManager.default.createDirectory(at: source.appendingPathComponent("Work"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        var originals: [String: String] = [:]
        for number in 0..<12 {
            let path = number % 3 == 0 ? "Work/note-\(number).md" : "note-\(number).md"
            originals[path] = "Note \(number)\nfirst words of \(number)\n"
            try Data(originals[path]!.utf8).write(to: source.appendingPathComponent(path))
        }
        let replaced = "note-4.md", reCreated = "note-1.md", workReplaced = "Work/note-6.md"
        let writes = WriterLog()
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url, history: nil) { item in
            let url = source.appendingPathComponent(item.source)
            switch item.source {
            case replaced, workReplaced:
                // Replaced atomically, as editors and sync clients write.
                let text = "Note replaced by another program (\(item.source))\n"
                let temporary = url.deletingLastPathComponent().appendingPathComponent(".sync-tmp")
                try? Data(text.utf8).write(to: temporary)
                rename(temporary.path, url.path)
                writes.add(text)
            case "note-8.md":
                // note-1 was taken away already: an append re-creates it; a new note arrives.
                let line = "appended to note-1 after it left\n"
                let handle = open(source.appendingPathComponent(reCreated).path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
                _ = line.withCString { write(handle, $0, strlen($0)) }
                close(handle)
                writes.add(line)
                let fresh = "A note a sync client brought in\n"
                try? Data(fresh.utf8).write(to: source.appendingPathComponent("Work/arrived.md"))
                writes.add(fresh)
            default:
                break
            }
        }
        try mover.run(mover.preflight())

        let arrived = FolderContents.regularFiles(in: destination).mapValues { String(decoding: $0, as: UTF8.self) }
        let everything = arrived.values.joined()
        for text in writes.texts { XCTAssertTrue(everything.contains(text), "lost: \(text)", file: file, line: line) }
        for (path, text) in originals where path != replaced && path != workReplaced {
            XCTAssertEqual(arrived[path], text, "\(path) changed on the way", file: file, line: line)
        }
        XCTAssertEqual(FolderContents.regularFiles(in: source).filter { !$0.key.hasPrefix(".") && !$0.key.contains("/.") }, [:],
                       "left behind in the old folder", file: file, line: line)
    }
}

private final class WriterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var written: [String] = []
    func add(_ text: String) { lock.withLock { written.append(text) } }
    var texts: [String] { lock.withLock { written } }
}
