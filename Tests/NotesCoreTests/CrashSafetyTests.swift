import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A child process saves a note in a loop and is killed with SIGKILL at random instants.
/// After every kill the file must hold one complete version, and no temporary file may be
/// listed as a note (the next open cleans them up).
final class CrashSafetyTests: XCTestCase {
    func testSIGKILLAtRandomInstantsNeverTearsTheNote() throws {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let writer = testBinary.deletingLastPathComponent().appendingPathComponent("notula-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: writer.path) else {
            return XCTFail("build the helper first: swift build --build-tests (\(writer.path))")
        }
        let folder = TemporaryFolder()
        let note = try folder.write("crash.md", CrashWriterText.version(0))
        var previous = 0
        var roundsThatCommitted = 0
        var roundsKilledMidWrite = 0
        // At least 200 kills, and on until kills have landed both between saves and in the
        // middle of a write (how often each happens depends on the machine's load), 1,000 at most.
        var kills = 0
        for round in 0..<1000 {
            if round >= 200 && roundsThatCommitted > 0 && roundsKilledMidWrite > 0 { break }
            kills += 1
            let process = Process()
            process.executableURL = writer
            process.arguments = [note.path, String((round + 1) * 1_000_000)]
            process.environment = ["XDG_STATE_HOME": folder.url.appendingPathComponent(".state").path, "HOME": folder.url.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Wait for "ready" so every kill lands inside the save loop, then a random instant.
            _ = output.fileHandleForReading.availableData
            usleep(UInt32.random(in: 0...50_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "round \(round): killed, not exited")

            let text = try String(contentsOf: note, encoding: .utf8)
            guard let version = CrashWriterText.completeVersion(in: text) else {
                return XCTFail("round \(round): torn or empty note (\(text.utf8.count) bytes)")
            }
            XCTAssertTrue(version == previous || version > (round + 1) * 1_000_000 - 1, "round \(round): an old or a new version")
            if version != previous { roundsThatCommitted += 1 }
            previous = version
            let listed = try NoteLibrary(folder: folder.url).scan().map(\.id)
            XCTAssertEqual(listed, ["crash.md"], "round \(round): a temporary file was listed as a note")
            if folder.names.contains(where: AtomicFileWriter.isTemporary) { roundsKilledMidWrite += 1 }
            AtomicFileWriter.removeLeftovers(in: folder.url, olderThan: 0)
        }
        // The kills must have landed both between saves and in the middle of writes.
        XCTAssertGreaterThan(roundsThatCommitted, 0)
        XCTAssertGreaterThan(roundsKilledMidWrite, 0)
        print("crash test: \(kills) kills; \(roundsThatCommitted) left a newer complete version, \(roundsKilledMidWrite) were mid-write (temporary left, note intact)")
    }
}
