import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Moving every note to a synced folder on a real FAT or exFAT file system and back (issue
/// #28, defect 9): no hard links, names it refuses, names differing only in case, names longer
/// than the way back allows. Every note arrives, renamed where it must be, with its pin and its
/// history; nothing is lost or overwritten. Needs root to mount (as in CI), else skipped.
final class FATMoveTests: XCTestCase {
    private var state: TemporaryFolder!
    private var historyFolder: TemporaryFolder!

    override func setUp() {
        state = TemporaryFolder()
        historyFolder = TemporaryFolder()
    }

    /// A library with every kind of name FAT cannot hold, beside ones it can.
    private func makeAwkwardLibrary(in folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["Todo.md", "todo.md", "a:b.md", "a_b.md", "why?.md", "star*.md", "quote\".md", "pipe|.md", "back\\slash.md",
                     "lt<gt>.md", "tab\t.md", "trailing.", "Café.md", "Plain.md", "Work/x.md", "work/y.md", "Pro:jects/z.md",
                     ".notula/Trash/files/old:one.md"] {
            files[name] = Data("The note once called \(name)\n".utf8)
        }
        files[".notula/Trash/info/old:one.md.trashinfo"] = Data("[Trash Info]\nPath=old%3Aone.md\nDeletionDate=2026-01-01T10:00:00\n".utf8)
        files[".notula/pinned.txt"] = Data("# Pinned\na:b.md\nWork/x.md\ntodo.md\nwork/y.md\n".utf8)
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return files
    }

    private func contents(of folder: URL) -> [String: Data] { FolderContents.regularFiles(in: folder) }

    func testMoveToFATRenamesWhatItCannotHoldAndBackLosesNothing() throws {
        try moveThereAndBack(FATDisk(.fat))
    }

    func testMoveToExFATRenamesWhatItCannotHoldAndBackLosesNothing() throws {
        try moveThereAndBack(FATDisk(.exfat))
    }

    private func moveThereAndBack(_ disk: FATDisk) throws {
        guard disk.replacesFiles else { return try assertMoveIsRefused(to: disk) }
        let local = TemporaryFolder()
        let source = local.url.appendingPathComponent("Notes"), synced = disk.url.appendingPathComponent("Notes")
        let files = try makeAwkwardLibrary(in: source)
        let history = NoteHistory(folder: historyFolder.url)
        try history.keep(Data("an older a:b\n".utf8), of: source.appendingPathComponent("a:b.md"), origin: .edited)
        try history.keep(Data("an older todo\n".utf8), of: source.appendingPathComponent("todo.md"), origin: .edited)

        let mover = LibraryMover(source: source, destination: synced, stateFolder: state.url, history: history)
        let plan = try mover.preflight()
        // What the destination was found to hold, by trying.
        XCTAssertFalse(plan.traits.canLink, "\(disk.driver): FAT has no hard links")
        XCTAssertFalse(plan.traits.canSymlink)
        XCTAssertFalse(plan.traits.isCaseSensitive)
        XCTAssertTrue(plan.traits.refusedCharacters.isSuperset(of: [":", "?", "*", "<", ">", "|", "\"", "\\", "\t"]), "\(plan.traits)")
        XCTAssertTrue(plan.traits.refusesTrailingDotOrSpace)
        XCTAssertFalse(plan.sameFileSystem)
        let cafe = plan.traits.allows("Café.md") ? "Café.md" : "Cafe.md"  // fusefat takes ASCII names only
        let expected: [String: String] = [
            "todo.md": "todo (2).md", "a:b.md": "a_b (2).md", "why?.md": "why_.md", "star*.md": "star_.md", "quote\".md": "quote_.md",
            "pipe|.md": "pipe_.md", "back\\slash.md": "back_slash.md", "lt<gt>.md": "lt_gt_.md", "tab\t.md": "tab_.md",
            "trailing.": "trailing", "Café.md": cafe, "work": "work (2)", "Pro:jects": "Pro_jects",
            ".notula/Trash/files/old:one.md": "old_one.md",
        ].filter { $0.key != $0.value }
        // The plan lists each rename, old → new, notebooks too; names FAT can hold keep theirs.
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: plan.renames.map { ($0.source, ($0.target as NSString).lastPathComponent) }), expected)
        XCTAssertEqual(plan.renames.first { $0.source == "todo.md" }?.reason, .caseOnly)
        XCTAssertEqual(plan.renames.first { $0.source == "a:b.md" }?.reason, .notAllowed)
        XCTAssertEqual(plan.renames.first { $0.source == "work" }?.isFolder, true)

        let started = Date()
        try mover.run(plan)
        print("moved \(files.count) files to \(disk.kind.rawValue) (\(disk.driver)) in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        // Every file arrived, at its planned name, with its bytes; nothing is left behind.
        var arrived = contents(of: synced)
        XCTAssertEqual(contents(of: source), [:], "nothing left behind")
        for item in plan.journal.items where item.source != ".notula/pinned.txt" {
            XCTAssertEqual(arrived[item.target], files[item.source], "\(item.source) → \(item.target)")
        }
        XCTAssertEqual(arrived["Todo.md"], files["Todo.md"])
        XCTAssertEqual(arrived["todo (2).md"], files["todo.md"])
        XCTAssertEqual(arrived["a_b.md"], files["a_b.md"], "a name FAT can hold keeps it")
        XCTAssertEqual(arrived["work (2)/y.md"], files["work/y.md"])
        XCTAssertEqual(arrived["Pro_jects/z.md"], files["Pro:jects/z.md"])
        // The Trash record follows its note; pins and history follow the renamed notes.
        XCTAssertEqual(arrived[".notula/Trash/info/old_one.md.trashinfo"], files[".notula/Trash/info/old:one.md.trashinfo"])
        XCTAssertEqual(PinnedNotes(library: synced).load(), ["a_b (2).md", "Work/x.md", "todo (2).md", "work (2)/y.md"])
        arrived[".notula/pinned.txt"] = nil
        XCTAssertEqual(arrived.count, files.count - 1)
        history.waitUntilIdle()
        let versions = try history.versions(of: synced.appendingPathComponent("a_b (2).md"))
        XCTAssertEqual(try versions.map { String(decoding: try history.contents(of: $0), as: UTF8.self) }, ["an older a:b\n"])
        XCTAssertEqual(try history.versions(of: synced.appendingPathComponent("todo (2).md")).count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: MoveJournal.url(in: state.url).path), "journal removed")

        // And back to this computer: FAT's names fit everywhere; nothing is renamed or lost.
        let before = contents(of: synced)
        let back = LibraryMover(source: synced, destination: source, stateFolder: state.url, history: history)
        let returnPlan = try back.preflight()
        XCTAssertTrue(returnPlan.traits.canLink)
        XCTAssertEqual(returnPlan.renames, [])
        try back.run(returnPlan)
        XCTAssertEqual(contents(of: source), before)
        XCTAssertEqual(contents(of: synced), [:])
    }

    /// exFAT takes names of up to 255 characters, which can be past 255 bytes: on the way back
    /// they are shortened (keeping ".md") instead of failing.
    func testNamesLongerThanTheWayBackAllowsAreShortened() throws {
        let disk = try FATDisk(.exfat)
        let source = disk.url.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        let long = String(repeating: "é", count: 200) + ".md"  // 403 bytes
        try Data("long\n".utf8).write(to: source.appendingPathComponent(long))
        try Data("also long\n".utf8).write(to: source.appendingPathComponent(String(repeating: "é", count: 200) + "x.md"))
        let local = TemporaryFolder()
        let destination = local.url.appendingPathComponent("Notes")
        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let plan = try mover.preflight()
        XCTAssertEqual(plan.traits.nameMax, 255)
        XCTAssertEqual(plan.renames.map(\.reason), [.tooLong, .tooLong])
        try mover.run(plan)
        let arrived = contents(of: destination)
        XCTAssertEqual(Set(arrived.values), [Data("long\n".utf8), Data("also long\n".utf8)])
        for name in arrived.keys {
            XCTAssertLessThanOrEqual(name.utf8.count, 255)
            XCTAssertTrue(name.hasSuffix(".md"), name)
        }
    }

    /// FAT has no symbolic links: a library holding one is refused before anything moves, and
    /// the message names the link (not a note that could not be "replaced").
    func testSymbolicLinksAreRefusedBeforeAnythingMoves() throws {
        let disk = try FATDisk(.fat)
        guard disk.replacesFiles else { return try assertMoveIsRefused(to: disk) }
        let local = TemporaryFolder()
        let source = local.url.appendingPathComponent("Notes")
        let files = try makeAwkwardLibrary(in: source)
        try FileManager.default.createSymbolicLink(atPath: source.appendingPathComponent("shortcut.md").path, withDestinationPath: "Plain.md")
        let mover = LibraryMover(source: source, destination: disk.url.appendingPathComponent("Notes"), stateFolder: state.url)
        XCTAssertThrowsError(try mover.preflight()) { error in
            XCTAssertEqual(error as? MoveError, .linksRefused(path: disk.url.appendingPathComponent("Notes").path, links: ["shortcut.md"]))
            XCTAssertTrue(String(describing: error).contains("shortcut.md"), "\(error)")
        }
        var left = contents(of: source)
        left["shortcut.md"] = nil  // read through the link
        XCTAssertEqual(left, files)
    }

    /// Within one exFAT drive there are no hard links either: notes are renamed into place (a
    /// name already there in another case is kept apart), and Cancel renames them back.
    func testMovingWithinOneExFATDriveRenamesIntoPlaceAndCancelPutsBack() throws {
        let disk = try FATDisk(.exfat)
        let source = disk.url.appendingPathComponent("A"), destination = disk.url.appendingPathComponent("B")
        var files: [String: Data] = [:]
        for path in ["a.md", "b.md", "c.md", "Work/d.md", "Work/e.md"] {
            files[path] = Data("note \(path)\n".utf8)
            let url = source.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files[path]!.write(to: url)
        }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        try Data("another device's A\n".utf8).write(to: destination.appendingPathComponent("A.md"))

        let cancelled = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        var asked = 0
        XCTAssertThrowsError(try cancelled.run(try cancelled.preflight(), isCancelled: { asked += 1; return asked > 3 })) { error in
            XCTAssertEqual(error as? MoveError, .cancelled)
        }
        XCTAssertEqual(contents(of: source), files, "everything renamed back")
        XCTAssertEqual(contents(of: destination), ["A.md": Data("another device's A\n".utf8)])

        let mover = LibraryMover(source: source, destination: destination, stateFolder: state.url)
        let plan = try mover.preflight()
        XCTAssertTrue(plan.sameFileSystem)
        XCTAssertEqual(plan.renames, [MoveRename(source: "a.md", target: "a (2).md", isFolder: false, reason: .nameTaken)])
        try mover.run(plan)
        var expected = files
        expected["a (2).md"] = expected.removeValue(forKey: "a.md")
        expected["A.md"] = Data("another device's A\n".utf8)
        XCTAssertEqual(contents(of: destination), expected)
        XCTAssertEqual(contents(of: source), [:])
    }

    /// How long a real library takes to reach FAT or exFAT and come back (printed for the
    /// record: fusefat is slow, so FAT gets fewer notes).
    func testManyNotesToFATAndBack() throws {
        try manyNotesThereAndBack(FATDisk(.fat), count: 120)
    }

    func testManyNotesToExFATAndBack() throws {
        try manyNotesThereAndBack(FATDisk(.exfat, megabytes: 128), count: 2000)
    }

    private func manyNotesThereAndBack(_ disk: FATDisk, count: Int) throws {
        guard disk.replacesFiles else { return try assertMoveIsRefused(to: disk) }
        let local = TemporaryFolder()
        let source = local.url.appendingPathComponent("Notes"), synced = disk.url.appendingPathComponent("Notes")
        var files: [String: Data] = [:]
        for index in 0..<count {
            let path = index % 10 == 0 ? "Book \(index % 3)/note \(index).md" : (index % 7 == 0 ? "Q\(index)?.md" : "note \(index).md")
            files[path] = Data("Note \(index)\n".utf8 + Data(repeating: UInt8(97 + index % 26), count: 1500 + index % 900))
            let url = source.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files[path]!.write(to: url)
        }
        var started = Date()
        let mover = LibraryMover(source: source, destination: synced, stateFolder: state.url)
        let plan = try mover.preflight()
        try mover.run(plan)
        let there = Date().timeIntervalSince(started)
        XCTAssertEqual(plan.renames.count, files.keys.filter { $0.contains("?") }.count)
        let arrived = contents(of: synced)
        let expected = Dictionary(uniqueKeysWithValues: plan.journal.items.map { ($0.target, files[$0.source]) })
        XCTAssertTrue(arrived == expected, "\(arrived.count) of \(count) arrived; \(arrived.filter { expected[$0.key] != $0.value }.count) differ")
        started = Date()
        let back = LibraryMover(source: synced, destination: source, stateFolder: state.url)
        try back.run(try back.preflight())
        let backTime = Date().timeIntervalSince(started)
        let returned = contents(of: source)
        XCTAssertTrue(returned == arrived, "\(returned.count) of \(count) came back")
        print("\(count) notes (\(files.values.reduce(0) { $0 + $1.count } / 1024) KiB) to \(disk.kind.rawValue) (\(disk.driver)): "
              + "\(String(format: "%.2f", there)) s; back: \(String(format: "%.2f", backTime)) s")
    }
}
