import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A first start reads new notes several at once, a little ahead of the reconcile (issue
/// #46), and what else lies in the library (a FIFO, a link out of it, a folder under a note's
/// name) neither stalls it nor is read.
final class ReadAheadTests: LibraryIndexTestCase {
    /// What reading /proc/self/io here has added to it so far.
    private var ownReads = 0

    /// Bytes this process has read through read(2) and pread(2) so far (/proc/self/io), less
    /// this test's own reads of that file.
    private func bytesRead() -> Int {
        let io = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? ""
        defer { ownReads += io.utf8.count }  // counted from the next reading on
        let line = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
        return (line.flatMap { Int($0.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)) } ?? 0) - ownReads
    }

    func testNewNotesAreReadAheadAndWhatIsNotANoteIsLeftAlone() throws {
        for number in 0..<300 { write("n\(number).md", "Note \(number)\nwords to read\n") }
        XCTAssertEqual(mkfifo(library.folder.appendingPathComponent("fifo.md").path, 0o600), 0)
        XCTAssertEqual(mkfifo(root.file("outside-fifo").path, 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: library.folder.appendingPathComponent("link.md").path, withDestinationPath: root.file("outside-fifo").path)
        try FileManager.default.createDirectory(at: library.folder.appendingPathComponent("folder.md"), withIntermediateDirectories: true)
        let index = try makeIndex()
        var listed: [String] = []
        var readers: [(name: String, nice: Int)] = []
        _ = try index.reconcile { batch in
            listed += batch.upserted.map(\.id)
            guard readers.isEmpty else { return }
            // Still there between batches (they end with the reconcile); named once they run.
            let deadline = Date().addingTimeInterval(10)
            repeat {
                readers = LibraryIndexTextsTests.threads().filter { $0.name.hasPrefix("notula.read-ah") }  // 15 characters kept
            } while readers.count < 4 && Date() < deadline && usleep(10_000) == 0
        }
        XCTAssertEqual(Set(listed), Set((0..<300).map { "n\($0).md" }), "the notes, and nothing else")
        XCTAssertEqual(readers.count, 4, "four threads read ahead while the reconcile ran")
        for reader in readers { XCTAssertEqual(reader.nice, 10, "below the window") }
    }

    /// At most `lead` files ahead of the reader, then one more for each it passes.
    func testItStaysALeadAheadOfTheReader() throws {
        let text = String(repeating: "x", count: 1000)
        let ids = (0..<100).map { number -> String in
            write("r\(number).md", text)
            return "r\(number).md"
        }
        let readAhead = ReadAhead(library: library.folder.path, threads: 4, lead: 10)
        defer { readAhead.finish() }
        let before = bytesRead()
        func waitUntilRead(_ files: Int) {
            let deadline = Date().addingTimeInterval(30)
            while bytesRead() - before < files * 1000, Date() < deadline { usleep(1000) }
            XCTAssertGreaterThanOrEqual(bytesRead() - before, files * 1000, "\(files) files read")
        }
        readAhead.add(ids)
        waitUntilRead(10)
        // Wrongly unbounded, the other 90 would follow within microseconds.
        usleep(200_000)
        XCTAssertLessThan(bytesRead() - before, 10 * 1000 + 500, "no further than the lead (another file is 1,000 bytes)")
        for _ in 0..<5 { readAhead.passed() }
        waitUntilRead(15)
        usleep(200_000)
        XCTAssertLessThan(bytesRead() - before, 15 * 1000 + 500, "one more per file passed")
    }

    /// Thousands passed (what was passed is dropped as it goes): it still reads the files
    /// after them, in order.
    func testPassingThousandsKeepsItReadingWhatComesNext() throws {
        let readAhead = ReadAhead(library: library.folder.path, threads: 2, lead: 5)
        defer { readAhead.finish() }
        readAhead.add((0..<20_000).map { "missing-\($0).md" })  // opened and not found: nothing read
        for _ in 0..<19_990 { readAhead.passed() }
        let text = String(repeating: "y", count: 1000)
        for number in 0..<10 { write("late-\(number).md", text) }
        let before = bytesRead()
        readAhead.add((0..<10).map { "late-\($0).md" })
        for _ in 0..<10 { readAhead.passed() }  // the reader's way through the last missing ones
        let deadline = Date().addingTimeInterval(30)
        while bytesRead() - before < 5 * 1000, Date() < deadline { usleep(1000) }
        XCTAssertGreaterThanOrEqual(bytesRead() - before, 5 * 1000, "the lead's worth of the files added last")
    }
}
