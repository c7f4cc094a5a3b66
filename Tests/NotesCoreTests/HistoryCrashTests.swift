import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A child process saves a note in a loop, keeping a version in the note's history at every
/// save (`saveAndWait` keeps one, as when a note is left), and is killed with SIGKILL at random
/// instants. After every kill the history must open, every version in it must be one whole
/// text, no version it had must be gone, and the note must hold one complete version.
final class HistoryCrashTests: XCTestCase {
    func testSIGKILLWhileWritingHistoryLeavesItReadableAndTheNoteIntact() throws {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let writer = testBinary.deletingLastPathComponent().appendingPathComponent("notula-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: writer.path) else {
            return XCTFail("build the helper first: swift build --build-tests (\(writer.path))")
        }
        let folder = TemporaryFolder()
        let library = folder.url.appendingPathComponent("Notes", isDirectory: true)
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let note = library.appendingPathComponent("crash.md")
        try Data(CrashWriterText.version(0).utf8).write(to: note)
        let store = folder.url.appendingPathComponent("data/notula/History", isDirectory: true)
        var known: [Int64: Int] = [:]  // version row → the text's version number
        var roundsThatAdded = 0
        let kills = 120
        for round in 0..<kills {
            let process = Process()
            process.executableURL = writer
            process.arguments = [note.path, String((round + 1) * 1_000_000)]
            process.environment = ["HOME": folder.url.path, "XDG_STATE_HOME": folder.url.appendingPathComponent("state").path,
                                   "XDG_DATA_HOME": folder.url.appendingPathComponent("data").path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            _ = output.fileHandleForReading.availableData  // "ready": the loop runs
            usleep(UInt32.random(in: 0...60_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "round \(round): killed, not exited")

            XCTAssertNotNil(CrashWriterText.completeVersion(in: try String(contentsOf: note, encoding: .utf8)), "round \(round): the note is whole")
            let history = NoteHistory(folder: store)
            XCTAssertNil(history.unavailableReason, "round \(round): the history opens")
            let versions = try history.versions(of: note)
            var now: [Int64: Int] = [:]
            for version in versions {
                let text = String(decoding: try history.contents(of: version), as: UTF8.self)
                guard let number = CrashWriterText.completeVersion(in: text) else {
                    return XCTFail("round \(round): version \(version.id) is not one whole text (\(text.utf8.count) bytes)")
                }
                now[version.id] = number
            }
            for (id, number) in known {
                XCTAssertEqual(now[id], number, "round \(round): version \(id) was there before the kill and must still be")
            }
            if now.count > known.count { roundsThatAdded += 1 }
            known = now
        }
        XCTAssertGreaterThan(roundsThatAdded, kills / 2, "the kills landed while versions were being kept")
        print("history crash test: \(kills) kills; \(roundsThatAdded) rounds added versions; \(known.count) versions, all whole")
    }
}
