import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// A fuzz test of the library reader (issue #11): random names (some not UTF-8), bytes and file types — regular
/// files of 0 bytes to 50 MB, FIFOs, sockets, symbolic links in and out of the library,
/// folders named like notes — in a temporary library. Listing, indexing and opening must
/// finish within a time bound, and no file's bytes may change. The seed is printed; set
/// NOTULA_FUZZ_SEED to replay one, NOTULA_FUZZ_SECONDS to run longer.
@MainActor
final class LibraryFuzzTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testTheReaderSurvivesWhatAnyProgramCanLeaveInTheLibrary() throws {
        try MainActor.assumeIsolated {
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["NOTULA_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
            let budget = environment["NOTULA_FUZZ_SECONDS"].flatMap(Double.init) ?? 15
            print("LibraryFuzzTests seed: \(seed) (NOTULA_FUZZ_SEED=\(seed) replays it)")
            var random = SeededRandom(seed: seed)
            let start = Date()
            var rounds = 0
            while Date().timeIntervalSince(start) < budget || rounds == 0 {
                try runRound(&random, seed: seed, round: rounds)
                rounds += 1
            }
            print("LibraryFuzzTests: \(rounds) libraries in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        }
    }

    nonisolated func testEveryTextThatDecodesCleanlyEncodesToTheSameBytes() {
        MainActor.assumeIsolated {
            var random = SeededRandom(seed: 42)
            let alphabet: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A], [0x00], [0xEF, 0xBB, 0xBF], Array("a".utf8), Array("é".utf8),
                                       Array("€".utf8), Array("😀".utf8), [0xFF], [0xC3], Array(" ".utf8), Array("\u{2028}".utf8)]
            for _ in 0..<20_000 {
                var bytes: [UInt8] = []
                for _ in 0..<random.next(upTo: 12) { bytes += alphabet[random.next(upTo: alphabet.count)] }
                let data = Data(bytes)
                let decoded = NoteEncoding.decode(data)
                if decoded.problem == nil {
                    XCTAssertEqual(decoded.encoding.encode(decoded.text), data, "bytes \(bytes)")
                    XCTAssertFalse(decoded.text.unicodeScalars.contains("\u{0}"))
                }
            }
        }
    }

    private func runRound(_ random: inout SeededRandom, seed: UInt64, round: Int) throws {
        let root = TemporaryFolder()
        let historyFolder = TemporaryFolder()  // outside `root`, whose files the test compares
        let history = NoteHistory(folder: historyFolder.url)
        defer { history.close() }
        let library = root.file("Library")
        let outside = root.file("Outside")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("outside the library".utf8).write(to: outside.appendingPathComponent("secret.md"))
        mkfifo(outside.appendingPathComponent("pipe").path, 0o600)
        var folders = [""]
        for _ in 0..<random.next(upTo: 6) {
            // Some notebooks' names are not UTF-8 ("Book\xff 12"): by their bytes, never lost.
            let name = (random.chance(0.3) ? PathBytes.string(Array("Book".utf8) + [0xFF]) : "Book") + " \(random.next(upTo: 1000))" + (random.chance(0.2) ? ".md" : "")
            let path = (random.chance(0.3) ? folders[random.next(upTo: folders.count)] + "/" : "") + name
            try? FileSystem.makeFolders(library.appendingPathComponent(path).path)
            folders.append(path)
        }
        var bigOne = random.chance(0.25)
        var regularNotes: Set<String> = []
        for index in 0..<(20 + random.next(upTo: 60)) {
            let folder = folders[random.next(upTo: folders.count)]
            let name = randomName(&random, index: index)
            let url = library.appendingPathComponent(folder).appendingPathComponent(name)
            switch random.next(upTo: 10) {
            case 0: mkfifo(url.path, 0o600)
            case 1: makeSocket(at: url.path)
            case 2: symlink(outside.appendingPathComponent(random.chance(0.5) ? "secret.md" : "pipe").path, url.path)
            case 3: symlink("../" + name, url.path)  // a link inside the library, maybe dangling or a loop
            case 4: try? FileSystem.makeFolders(url.path)
            default:
                var size = random.next(upTo: 3) == 0 ? 0 : random.next(upTo: 20_000)
                if bigOne { size = 5_000_000 + random.next(upTo: 45_000_000); bigOne = false }
                if (try? AtomicFileWriter.write(randomBytes(&random, count: size), to: url)) != nil {
                    regularNotes.insert(folder.isEmpty ? name : "\(folder.hasPrefix("/") ? String(folder.dropFirst()) : folder)/\(name)")
                }
            }
        }
        let before = snapshot(root.url)
        let notes = LibraryNotes(library: library)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            notes.read()
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else {
            return XCTFail("seed \(seed), round \(round): listing and indexing did not finish in 20 s")
        }
        // Opening every listed note (a document each, as the app does) finishes too.
        for note in notes.listed {
            let document = NoteDocument(fileURL: note.url, drafts: RecoveryDrafts(folder: root.file("drafts")),
                                        history: history, localWrites: LocalWrites())
            document.errorPresenter = { _, _, done in done(false) }
            var opened: Bool?
            document.open { opened = $0 }
            guard MainQueue.run(until: { opened != nil }, timeout: 10) else {
                return XCTFail("seed \(seed), round \(round): opening \(note.id) did not finish in 10 s")
            }
            if opened == true {
                XCTAssertLessThanOrEqual(LargeNote.longestLine(Data(document.text.utf8)), max(LargeNote.maximumLineBytes, LargeNote.previewLineBytes + 4),
                                         "seed \(seed): the editor would get a line too long to lay out")
            }
            var closed = false
            document.close { _ in closed = true }
            XCTAssertTrue(MainQueue.run(until: { closed }, timeout: 10), "seed \(seed): closing \(note.id)")
        }
        XCTAssertEqual(snapshot(root.url), before, "seed \(seed), round \(round): a file changed")
        // No note invisible: every regular file with a note's name (not hidden, not a conflict
        // copy, not in a hidden folder) is listed, whatever bytes its name holds.
        let listedIDs = Set(notes.listed.map(\.id))
        for id in regularNotes where !id.split(separator: "/").contains(where: { $0.hasPrefix(".") || $0.hasPrefix("~") })
            && NoteLibrary.isNoteFileName((id as NSString).lastPathComponent) && !id.contains("conflict") {
            XCTAssertTrue(listedIDs.contains(id), "seed \(seed), round \(round): \(PathBytes.display(id)) is not listed")
        }
        XCTAssertEqual(Set(notes.indexed.map(\.id)), listedIDs, "seed \(seed), round \(round): the index lists what the scan does")
        for note in notes.listed {
            XCTAssertTrue(note.url.path.hasPrefix(library.path + "/"), "seed \(seed): \(note.id) is outside the library")
        }
    }

    private func randomName(_ random: inout SeededRandom, index: Int) -> String {
        let stems = ["note", "Café notes", "a b  c", "日本語", "x", String(repeating: "l", count: 240), ".hidden", "~lock",
                     "note.sync-conflict-20240101-101010-ABCDEF7", "note (conflicted copy 2024-01-01 101010)", "-dash", "tab\tname",
                     PathBytes.string(Array("caf".utf8) + [0xE9]), PathBytes.string([0xC3, 0x28, 0xFF, 0x20]), PathBytes.string(Array("own \u{10FFA9}".utf8))]
        let extensions = [".md", ".md", ".txt", ".markdown", ".MD", "", ".png", ".md.part"]
        let name = "\(stems[random.next(upTo: stems.count)])\(index)\(extensions[random.next(upTo: extensions.count)])"
        return name.utf8.count > 255 ? String(name.suffix(200)) : name
    }

    private func randomBytes(_ random: inout SeededRandom, count: Int) -> Data {
        let pieces: [[UInt8]] = [Array("Title\n".utf8), Array("line of words ".utf8), [0x0A], [0x0D, 0x0A], [0x00], [0xFF, 0xFE],
                                 [0xEF, 0xBB, 0xBF], Array("é".utf8), [0xC3], Array("😀".utf8)]
        if count > 1_000_000 {
            // Large files: a few long runs of one byte (some lines megabytes long), pieces between.
            var data = Data(capacity: count)
            while data.count < count {
                data.append(contentsOf: pieces[random.next(upTo: pieces.count)])
                let byte: UInt8 = random.chance(0.3) ? 0x0A : [0x61, 0x20, 0x7A][random.next(upTo: 3)]
                data.append(Data(repeating: byte, count: min(count - data.count, 1 + random.next(upTo: count / 3))))
            }
            return data.prefix(count)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count { bytes += pieces[random.next(upTo: pieces.count)] }
        return Data(bytes.prefix(count))
    }

    /// Every regular file and link under `folder` (without following links), with a hash.
    private func snapshot(_ folder: URL) -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        func walk(_ url: URL, _ relative: String) {
            for name in (try? FolderEntries.read(url.path).map(\.name)) ?? [] {
                let child = url.appendingPathComponent(name)
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                var info = stat()
                guard lstat(child.path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: walk(child, path)
                case S_IFREG: result[path] = (try? FileIdentity.read(child))?.identity.contentHash ?? 0
                case S_IFLNK: result[path] = ContentHash.of(Data(PathBytes.bytes(readLink(child.path) ?? "")))
                default: result[path] = UInt64(info.st_mode)
                }
            }
        }
        walk(folder, "")
        return result
    }

    private func makeSocket(at path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(PathBytes.bytes(path).prefix(107))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// What the app reads of a library at start: notes and notebooks, and its index.
private final class LibraryNotes: Sendable {
    let library: URL
    private let found = Shared<[NoteSummary]>([])
    private let inIndex = Shared<[NoteSummary]>([])
    var listed: [NoteSummary] { found.value }
    var indexed: [NoteSummary] { inIndex.value }

    init(library: URL) { self.library = library }

    func read() {
        let reader = NoteLibrary(folder: library)
        try? reader.prepare(createIfMissing: false)
        found.value = (try? reader.scanWithNotebooks().notes) ?? []
        let index = try! LibraryIndex(library: reader, cacheFolder: nil)
        _ = try? index.reconcile { _ in }
        _ = try? index.matches("note")
        inIndex.value = index.summaries()
    }
}
