import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The mover in a child process is killed with SIGKILL at random instants; after each kill the
/// next start (finishInterruptedMove) leaves every note exactly once, with identical bytes.
final class MoverCrashTests: XCTestCase {
    func testSIGKILLAtRandomInstantsNeverLosesOrDuplicatesANote() throws {
        let writer = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("notula-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: writer.path) else {
            return XCTFail("build the helper first: swift build --build-tests (\(writer.path))")
        }
        let disk = try SmallDisk(kilobytes: 8 * 1024)  // half the rounds cross file systems
        var finishedAfterKill = 0, untouched = 0, completed = 0
        let rounds = 200
        for round in 0..<rounds {
            let root = TemporaryFolder()
            let state = root.url.appendingPathComponent("state")
            let source = root.url.appendingPathComponent("Local")
            let destination = (round % 2 == 0 ? root.url : disk.url).appendingPathComponent("Synced-\(round)")
            var originals: [String: Data] = [:]
            for index in 0..<40 {
                let path = index % 5 == 0 ? "Notebook/n\(index).md" : "n\(index).md"
                let data = Data((0..<(200 + (index * 397 + round * 31) % 3000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &+ round) })
                let url = source.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
                originals[path] = data
            }
            let process = Process()
            process.executableURL = writer
            process.arguments = ["move", source.path, destination.path, state.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let first = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            XCTAssertTrue(first.hasPrefix("ready"), "round \(round): the mover did not start: \(first)")
            usleep(UInt32.random(in: 0...(round % 2 == 0 ? 3_000 : 40_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .exit {
                XCTAssertEqual(process.terminationStatus, 0, "round \(round): \(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
                completed += 1
            }

            switch LibraryMover.finishInterruptedMove(stateFolder: state) {
            case .finished: finishedAfterKill += 1
            case .nothingToDo: break
            case .destinationUnavailable: return XCTFail("round \(round): destination unavailable")
            case .damagedJournal(let aside): return XCTFail("round \(round): the journal was damaged (\(aside))")
            }
            // Every note exactly once (at the source if the move never began, else at the
            // destination), with identical bytes; no temporaries anywhere.
            let atSource = files(in: source), atDestination = files(in: destination)
            let moved = !atDestination.isEmpty
            if !moved { untouched += 1 }
            XCTAssertEqual(moved ? atDestination : atSource, originals, "round \(round)")
            XCTAssertEqual(moved ? atSource : atDestination, [:], "round \(round): a note exists twice")
            if atSource != originals && atDestination != originals { return XCTFail("round \(round): notes lost") }
            try? FileManager.default.removeItem(at: destination)  // the small disk is shared by the rounds
        }
        XCTAssertGreaterThan(finishedAfterKill, 0, "some kills landed inside a move")
        print("mover crash test: \(rounds) kills; \(finishedAfterKill) moves finished at the next start, \(untouched) killed before moving, \(completed) had completed")
    }

    /// The same on FAT and exFAT, where notes are renamed on the way (refused characters,
    /// names that differ only in case) and placed by rename (no hard links): after each kill
    /// every note is exactly once, at its planned name, and the pins follow them.
    func testSIGKILLDuringMovesToFATWithRenamedNotesNeverLosesOrDuplicatesANote() throws {
        let writer = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("notula-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: writer.path) else {
            return XCTFail("build the helper first: swift build --build-tests (\(writer.path))")
        }
        var finishedAfterKill = 0, untouched = 0, completed = 0, rounds = 0
        for (kind, count) in [(FATDisk.Kind.exfat, 60), (.fat, 16)] {
            let disk = try FATDisk(kind)
            guard disk.replacesFiles else {
                try assertMoveIsRefused(to: disk)
                continue
            }
            for round in 0..<count {
                rounds += 1
                let root = TemporaryFolder()
                let state = root.url.appendingPathComponent("state")
                let source = root.url.appendingPathComponent("Local")
                let destination = disk.url.appendingPathComponent("Synced-\(round)")
                var originals: [String: Data] = [:]
                for index in 0..<24 {
                    let name = ["Todo \(index).md", "todo \(index).md", "a:\(index).md", "q\(index)?.md"][index % 4]
                    let path = index % 5 == 0 ? "Book:\(index % 2)/\(name)" : name
                    let data = Data((0..<(200 + (index * 397 + round * 31) % 3000)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &+ round) })
                    let url = source.appendingPathComponent(path)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try data.write(to: url)
                    originals[path] = data
                }
                try PinnedNotes(library: source).save(["a:2.md", "todo 1.md"])
                originals[".notula/pinned.txt"] = try Data(contentsOf: PinnedNotes(library: source).fileURL)
                // The plan the mover will make (the same listing, the same empty destination).
                let plan = try LibraryMover(source: source, destination: destination, stateFolder: root.url.appendingPathComponent("plan")).preflight()
                let targets = Dictionary(uniqueKeysWithValues: plan.journal.items.map { ($0.source, $0.target) })
                XCTAssertFalse(plan.renames.isEmpty)

                let process = Process()
                process.executableURL = writer
                process.arguments = ["move", source.path, destination.path, state.path]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let first = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
                XCTAssertTrue(first.hasPrefix("ready"), "\(kind) round \(round): the mover did not start: \(first)")
                usleep(UInt32.random(in: 0...(kind == .fat ? 400_000 : 20_000)))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if process.terminationReason == .exit { completed += 1 }

                switch LibraryMover.finishInterruptedMove(stateFolder: state) {
                case .finished: finishedAfterKill += 1
                case .nothingToDo: break
                case .destinationUnavailable: return XCTFail("\(kind) round \(round): destination unavailable")
                case .damagedJournal(let aside): return XCTFail("\(kind) round \(round): the journal was damaged (\(aside))")
                }
                let atSource = files(in: source)
                var atDestination = files(in: destination)
                let probes = atDestination.keys.filter { $0.hasPrefix(".notula-probe-") }
                if !probes.isEmpty {  // killed while trying the destination: the next try removes what it left
                    _ = try DestinationTraits.probe(destination)
                    XCTAssertFalse(files(in: destination).keys.contains { $0.hasPrefix(".notula-probe-") }, "\(kind) round \(round): \(probes)")
                    for probe in probes { atDestination[probe] = nil }
                }
                if atDestination.isEmpty {
                    untouched += 1
                    XCTAssertEqual(atSource, originals, "\(kind) round \(round): the move never began, yet the notes changed")
                } else {
                    var expected = Dictionary(uniqueKeysWithValues: originals.map { (targets[$0.key] ?? $0.key, $0.value) })
                    expected[".notula/pinned.txt"] = nil
                    var arrived = atDestination
                    arrived[".notula/pinned.txt"] = nil
                    XCTAssertTrue(arrived == expected, "\(kind) round \(round): \(arrived.count) of \(expected.count) at their planned names; extra \(arrived.keys.filter { expected[$0] == nil }.sorted()), missing \(expected.keys.filter { arrived[$0] == nil }.sorted())")
                    XCTAssertEqual(atSource, [:], "\(kind) round \(round): a note exists twice")
                    XCTAssertEqual(PinnedNotes(library: destination).load(), [targets["a:2.md"]!, targets["todo 1.md"]!])
                }
                try? FileManager.default.removeItem(at: destination)
            }
        }
        XCTAssertGreaterThan(finishedAfterKill, 0, "some kills landed inside a move")
        print("mover crash test on FAT and exFAT: \(rounds) kills; \(finishedAfterKill) moves finished at the next start, \(untouched) killed before moving, \(completed) had completed")
    }

    private func files(in folder: URL) -> [String: Data] { FolderContents.regularFiles(in: folder) }
}
