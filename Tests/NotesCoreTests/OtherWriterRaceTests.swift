import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// The library has other writers. Another process (`notula-crash-writer other-writer`) appends
/// to, replaces, makes and deletes notes at random instants while Notula runs its bulk
/// operations over and over: link updates and their Undo, notes moved between notebooks
/// (their links retargeted and rebased), a notebook renamed, notes trashed and restored,
/// imports whose names collide with the other program's notes, attachment removal, and the
/// move of every note on one disk and to another. Afterwards every line the other program
/// wrote (and did not delete itself) is in a note somewhere — in place, in the Trash or kept
/// beside as another version — never only in a hidden temporary. The seed is printed; a lost
/// line is printed with what the other program did and the rounds around it.
/// `NOTULA_RACE_SEED` picks the seed, `NOTULA_RACE_OPS=move-note,import` (or `none`: the
/// moves of every note only) narrows the operations.
final class OtherWriterRaceTests: XCTestCase {
    static let rounds = 1000

    func testEveryLineAnotherProgramWroteSurvivesEveryBulkOperation() throws {
        let seed = ProcessInfo.processInfo.environment["NOTULA_RACE_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let root = TemporaryFolder(), state = TemporaryFolder(), sources = TemporaryFolder()
        let disk = try SmallDisk(kilobytes: 16 << 10)
        var library = root.url.appendingPathComponent("Notes")
        try makeLibrary(library)
        let writer = try OtherWriterProcess(seed: seed, folders: [root.url.path, disk.url.path])
        var random = SeededRandom(seed: seed)
        var done: [String: Int] = [:]
        var moves = 0
        var log: [(time: Double, what: String)] = []
        for round in 0..<Self.rounds {
            let started = Self.now()
            let operations = ProcessInfo.processInfo.environment["NOTULA_RACE_OPS"]?.split(separator: ",").map(String.init)
                ?? ["rename-links", "move-note", "rename-notebook", "trash-restore", "import", "attachments"]
            let operation = round % 50 == 49 ? "move-all" : operations[random.next(upTo: operations.count)]
            let succeeded: Bool
            switch operation {
            case "rename-links": succeeded = renameLinks(in: library, round: round)
            case "move-note": succeeded = moveNote(in: library, random: &random)
            case "rename-notebook": succeeded = renameNotebook(in: library)
            case "trash-restore": succeeded = trashAndRestore(in: library, random: &random)
            case "import": succeeded = importColliding(into: library, sources: sources.url.appendingPathComponent("\(round)"), random: &random)
            case "none": succeeded = true
            case "attachments": succeeded = (try? AttachmentUsage(library: library).remove(AttachmentUsage(library: library).unused())) != nil
            default:
                moves += 1
                let destination = (moves % 2 == 0 ? root.url : disk.url).appendingPathComponent("Notes \(moves)")
                try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
                let mover = LibraryMover(source: library, destination: destination, stateFolder: state.url, history: nil)
                do {
                    try mover.run(mover.preflight())
                    succeeded = true
                } catch {
                    print("move-all \(round): \(error)")
                    succeeded = false
                }
                if succeeded { library = destination }
            }
            if succeeded { done[operation, default: 0] += 1 }
            log.append((started, "round \(round) \(operation) in \(library.lastPathComponent) until \(Self.now()): \(succeeded)"))
        }
        let report = writer.stop()
        print("OtherWriterRaceTests: seed \(seed), \(Self.rounds) rounds, done \(done.sorted { $0.key < $1.key }), the other program wrote \(report.accepted.count) lines (deleted \(report.gone.count))")
        XCTAssertGreaterThan(report.accepted.count, 500, "the other program hardly wrote: seed \(seed)")
        for operation in Set(done.keys).union(ProcessInfo.processInfo.environment["NOTULA_RACE_OPS"] == nil ? ["rename-links", "move-note", "rename-notebook", "trash-restore", "import", "attachments", "move-all"] : []) {
            XCTAssertGreaterThan(done[operation] ?? 0, 0, "\(operation) never succeeded: seed \(seed)")
        }
        let kept = tokens(under: [root.url, disk.url])
        let lost = report.accepted.subtracting(report.gone).subtracting(kept)
        XCTAssertTrue(lost.isEmpty, "seed \(seed): \(lost.count) lines of the other program lost, e.g. \(lost.sorted().prefix(5))")
        let hidden = hiddenFiles(under: [root.url, disk.url])
        for token in lost.sorted() {
            let line = writer.lines[token] ?? token
            print("lost: \(line)")
            for (path, text) in hidden where text.contains(token + "\n") { print("    found in \(path)") }
            let file = line.split(separator: " ").dropFirst(3).dropLast(2).joined(separator: " ")
            for other in writer.lines.values.sorted() where other.contains(file) { print("    the other program: \(other)") }
            if let time = Double(line.split(separator: " ").last ?? "") {
                let next = log.firstIndex { $0.time > time } ?? log.count
                for entry in log[max(0, next - 4)..<min(log.count, next + 3)] { print("    \(entry.time) \(entry.what)") }
            }
        }
    }

    private static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    // MARK: The library

    private func makeLibrary(_ library: URL) throws {
        for folder in ["Work", "Home", "attachments"] {
            try FileManager.default.createDirectory(at: library.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("Plan\nthe plan\n".utf8).write(to: library.appendingPathComponent("plan.md"))
        for number in 0..<12 {
            let folder = ["", "Work/", "Home/"][number % 3]
            let text = "Note \(number)\nsee [[Plan]] and [the picture](\(folder.isEmpty ? "" : "../")attachments/pic-\(number % 4).png)\n"
            try Data(text.utf8).write(to: library.appendingPathComponent("\(folder)note-\(number).md"))
        }
        for number in 0..<6 { try Data([0x89, 0x50, 0x4E, 0x47, UInt8(number)]).write(to: library.appendingPathComponent("attachments/pic-\(number).png")) }
    }

    /// The note ids under `library` (not the Trash).
    private func noteIDs(in library: URL) -> [String] {
        var ids: [String] = []
        try? AttachmentUsage(library: library).forEachNote { url, id in
            if !url.path.contains("/.notula/") { ids.append(id) }
        }
        return ids
    }

    // MARK: Notula's bulk operations

    private func renameLinks(in library: URL, round: Int) -> Bool {
        let (from, to) = round % 2 == 0 ? ("Plan", "Plan B") : ("Plan B", "Plan")
        guard let plan = TitleRename.plan(library: library, candidates: noteIDs(in: library), from: from, to: to),
              let written = try? plan.apply() else { return false }
        if round % 3 == 0 { TitleRename.undo(written) }
        return true
    }

    private func moveNote(in library: URL, random: inout SeededRandom) -> Bool {
        let ids = noteIDs(in: library)
        guard !ids.isEmpty else { return false }
        let id = ids[random.next(upTo: ids.count)]
        let notebooks = Notebooks(library: library)
        let targets = [""] + NoteLibrary(folder: library).notebooks()
        let target = targets[random.next(upTo: targets.count)]
        return (try? notebooks.move(note: id, to: target)) != nil
    }

    private func renameNotebook(in library: URL) -> Bool {
        let notebooks = Notebooks(library: library)
        let (from, to) = FileSystem.isFolder(library.appendingPathComponent("Work").path) ? ("Work", "Job") : ("Job", "Work")
        return (try? notebooks.rename(from, to: to)) != nil
    }

    private func trashAndRestore(in library: URL, random: inout SeededRandom) -> Bool {
        let ids = noteIDs(in: library)
        guard !ids.isEmpty else { return false }
        let trash = LibraryTrash(library: library)
        guard let item = try? trash.trash(relativePath: ids[random.next(upTo: ids.count)]) else { return false }
        return (try? trash.restore(item)) != nil
    }

    /// Imports a folder whose notes have the names of notes in the library (the other
    /// program's among them): none may be replaced.
    private func importColliding(into library: URL, sources: URL, random: inout SeededRandom) -> Bool {
        let names = noteIDs(in: library).filter { !$0.contains("/") }
        guard !names.isEmpty, (try? FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)) != nil else { return false }
        for _ in 0..<3 {
            let name = names[random.next(upTo: names.count)]
            try? Data("Imported \(name)\n".utf8).write(to: sources.appendingPathComponent(name))
        }
        let report = MarkdownFolderImport.run(MarkdownFolderImport.noteFiles(in: sources), from: sources, into: library)
        return !report.imported.isEmpty
    }

    // MARK: What is kept

    /// Every file under `folders` (hidden ones and ones that are not UTF-8 too) and its text.
    private func hiddenFiles(under folders: [URL]) -> [(String, String)] {
        var found: [(String, String)] = []
        func walk(_ path: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let child = path + "/" + name
                if FileSystem.isFolder(child) { walk(child); continue }
                if let data = FileManager.default.contents(atPath: child) { found.append((child, String(decoding: data, as: UTF8.self))) }
            }
        }
        for folder in folders { walk(folder.path) }
        return found
    }

    /// Every `tok-…` line in the visible files under `folders` (the Trash included; our hidden
    /// temporaries and set-aside files are not places anyone looks).
    private func tokens(under folders: [URL]) -> Set<String> {
        var found = Set<String>()
        func walk(_ path: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let child = path + "/" + name
                if FileSystem.isFolder(child) { walk(child); continue }
                guard !name.hasPrefix(".notula-"), !name.hasPrefix(".syncthing"),
                      let text = try? String(contentsOfFile: child, encoding: .utf8) else { continue }
                for line in text.split(separator: "\n") where line.hasPrefix("tok-") { found.insert(String(line)) }
            }
        }
        for folder in folders { walk(folder.path) }
        return found
    }
}

/// The other program, running until `stop`.
private final class OtherWriterProcess {
    private let process = Process()
    private let input = Pipe()
    private let report = TemporaryFolder()
    /// Its report's line for each token (what it did, where, when).
    private(set) var lines: [String: String] = [:]

    init(seed: UInt64, folders: [String]) throws {
        let helper = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("notula-crash-writer")
        guard FileManager.default.isExecutableFile(atPath: helper.path) else {
            throw NSError(domain: "notula-crash-writer", code: 1, userInfo: [NSLocalizedDescriptionKey: "build the helper first: swift build --build-tests (\(helper.path))"])
        }
        process.executableURL = helper
        process.arguments = ["other-writer", String(seed), report.file("report").path] + folders
        process.standardInput = input
        try process.run()
    }

    /// Stops it; what it reported.
    func stop() -> (accepted: Set<String>, gone: Set<String>) {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        var accepted = Set<String>(), gone = Set<String>()
        let lines = (try? String(contentsOf: report.file("report"), encoding: .utf8)) ?? ""
        for line in lines.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "ok", words.count >= 2 { accepted.insert(words[1]) }
            if words.first == "gone" { gone.formUnion(words.dropFirst().prefix { $0 != "at" }) }
        }
        lines.split(separator: "\n").forEach { self.lines[String($0.split(separator: " ").dropFirst().first ?? "")] = String($0) }
        return (accepted, gone)
    }
}
