import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Indexing in a child process is killed with SIGKILL at random instants while notes change
/// between runs; after each kill the index never trusts a row whose content is stale, and the
/// next start's reconcile makes it equal to the disk (issue #13).
final class IndexCrashTests: XCTestCase {
    func testSIGKILLWhileIndexingNeverLeavesAStaleRowTrusted() throws {
        let helper = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("notula-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: helper.path) else {
            return XCTFail("build the helper first: swift build --build-tests (\(helper.path))")
        }
        let root = TemporaryFolder()
        let library = NoteLibrary(folder: root.file("Notes"))
        let cache = root.file("cache")
        var versions: [Int: Int] = [:]
        func write(_ number: Int) {
            let version = (versions[number] ?? 0) + 1
            versions[number] = version
            let folder = number % 4 == 0 ? library.folder.appendingPathComponent("Book") : library.folder
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let text = "Note \(number) v\(version)\nmark\(number)x\(version)q " + String(repeating: "filler words here ", count: 40 + number % 50)
            try? Data(text.utf8).write(to: folder.appendingPathComponent("n\(number).md"))
        }
        for number in 0..<400 { write(number) }
        var random = SeededRandom(seed: UInt64.random(in: 1...UInt64.max))
        var killedMidway = 0
        for round in 0..<60 {
            for _ in 0..<20 {
                let number = random.next(upTo: 420)
                if random.chance(0.15), versions[number] != nil {
                    let folder = number % 4 == 0 ? library.folder.appendingPathComponent("Book") : library.folder
                    unlink(folder.appendingPathComponent("n\(number).md").path)
                    versions[number] = nil
                } else {
                    write(number)
                }
            }
            let process = Process()
            process.executableURL = helper
            process.arguments = ["index", library.folder.path, cache.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            usleep(UInt32(random.next(upTo: 120_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            if process.terminationReason == .uncaughtSignal, !said.contains("indexed") { killedMidway += 1 }

            // What the index would trust at the next start: rows whose file looks unchanged.
            let index = LibraryIndex(library: library, cacheFolder: cache)
            XCTAssertNotNil(index.fileURL, "round \(round): the cache was usable after the kill")
            for note in index.summaries() {
                guard let identity = index.storedIdentity(of: note.id) else { continue }
                var info = stat()
                guard lstat(note.url.path, &info) == 0, LibraryIndex.Identity(info) == identity else { continue }
                XCTAssertEqual(note, try library.summary(ofFileNamed: note.id), "round \(round): \(note.id) trusted but stale")
            }
            // The next start puts everything right.
            _ = try index.reconcile { _ in }
            let listed = Set(index.summaries().map(\.id))
            XCTAssertEqual(listed, Set(try library.scan().map(\.id)), "round \(round)")
            for (number, version) in versions where number % 25 == round % 25 {
                let id = number % 4 == 0 ? "Book/n\(number).md" : "n\(number).md"
                XCTAssertEqual(index.matches("mark\(number)x\(version)q"), [id], "round \(round): \(id) v\(version)")
                if version > 1 { XCTAssertEqual(index.matches("mark\(number)x\(version - 1)q"), [], "round \(round): old text of \(id)") }
            }
        }
        XCTAssertGreaterThanOrEqual(killedMidway, 50, "enough kills landed while indexing")
    }
}
