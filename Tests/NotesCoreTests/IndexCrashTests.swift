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
        func runHelper(killAfter microseconds: UInt32?) throws -> (killedMidway: Bool, seconds: Double) {
            let process = Process()
            process.executableURL = helper
            process.arguments = ["index", library.folder.path, cache.path]
            let output = Pipe()
            process.standardOutput = output
            let started = Date()
            try process.run()
            if let microseconds {
                usleep(microseconds)
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationReason == .uncaughtSignal && !said.contains("indexed"), Date().timeIntervalSince(started))
        }
        // How long a whole first indexing takes here: kills land within it.
        let whole = try runHelper(killAfter: nil).seconds
        let seed = UInt64.random(in: 1...UInt64.max)
        print("IndexCrashTests seed: \(seed), a whole indexing: \(String(format: "%.3f", whole)) s")
        var random = SeededRandom(seed: seed)
        var killedMidway = 0, rounds = 0
        // Until 50 kills landed while indexing (a kill after the end counts for nothing).
        for round in 0..<150 where killedMidway < 50 {
            rounds += 1
            // Every other round starts from no index (a first run, the longest); the others
            // update the index left by the last kill.
            if round % 2 == 0 { SQLiteStore.removeFiles(of: LibraryIndex.cacheURL(for: library.folder, in: cache).path) }
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
            let window = whole * (round % 2 == 0 ? 1 : 0.3)  // an update reads fewer files
            if try runHelper(killAfter: UInt32(random.next(upTo: max(Int(window * 1_000_000), 1000)))).killedMidway { killedMidway += 1 }

            // What the index would trust at the next start: rows whose file looks unchanged.
            let index = try LibraryIndex(library: library, cacheFolder: cache)
            XCTAssertNotNil(index.fileURL, "round \(round): the cache was usable after the kill")
            for note in index.summaries() {
                guard let identity = index.storedIdentity(of: note.id) else { continue }
                var info = stat()
                guard lstat(note.url.path, &info) == 0, LibraryIndex.Identity(info) == identity else { continue }
                XCTAssertEqual(note, try library.summary(ofFileNamed: note.id), "round \(round): \(note.id) trusted but stale")
            }
            // The next start puts everything right.
            _ = try index.reconcile { _ in }
            index.indexAllWaitingTexts()
            let listed = Set(index.summaries().map(\.id))
            XCTAssertEqual(listed, Set(try library.scan().map(\.id)), "round \(round)")
            for (number, version) in versions where number % 25 == round % 25 {
                let id = number % 4 == 0 ? "Book/n\(number).md" : "n\(number).md"
                XCTAssertEqual(try index.matches("mark\(number)x\(version)q"), [id], "round \(round): \(id) v\(version)")
                if version > 1 { XCTAssertEqual(try index.matches("mark\(number)x\(version - 1)q"), [], "round \(round): old text of \(id)") }
            }
        }
        print("IndexCrashTests: \(killedMidway) of \(rounds) kills landed while indexing")
        XCTAssertGreaterThanOrEqual(killedMidway, 50, "enough kills landed while indexing (seed \(seed))")
    }
}
