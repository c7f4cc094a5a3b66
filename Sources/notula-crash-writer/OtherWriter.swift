import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `notula-crash-writer other-writer SEED REPORT FOLDER…`: another program writing the notes
/// under the folders at random instants, as sync clients and other editors do, until its
/// standard input closes. Each write adds one line `tok-SEED-N` and is reported in the file
/// REPORT (a file, not a pipe: nobody has to read it while it runs):
/// - `ok TOKEN HOW PATH at TIME`: appended in place (`O_APPEND`) and seen at the note's path right after, or
///   written by a careful atomic replace (`replace`), or a new note made
///   beside another (at most 80 notes);
/// - `gone TOKEN…`: the tokens of one of its own notes (`other-*.md`) it deleted.
/// An append that landed in a file already renamed away is not reported (no program could
/// have seen it there). The test then looks for every reported token in the folders.
enum OtherWriter {
    static func run(seed: UInt64, report path: String, folders: [String]) -> Never {
        guard let report = fopen(path, "w") else { exit(2) }
        var random = SplitMix(seed: seed)
        var count = 0
        // Standard input closing is the signal to stop: looked at between writes, never waited on.
        _ = fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK)
        var byte: UInt8 = 0
        while read(0, &byte, 1) != 0 {
            let notes = folders.flatMap { noteFiles(in: $0) }
            count += 1
            let token = "tok-\(seed)-\(count)"
            let choice = random.next() % 10
            var line: String?
            if notes.isEmpty {
                line = nil  // a moment with no note (a move lists its folders): wait
            } else if choice == 0 {
                if notes.count < 80 { line = create(token, besides: notes[Int(random.next() % UInt64(notes.count))], number: count) }
            } else {
                let path = notes[Int(random.next() % UInt64(notes.count))]
                switch choice {
                case 1...4: line = append(token, to: path)
                case 5...8: line = replace(path, adding: token, random: &random)
                default: line = removeOwn(path, random: &random)
                }
            }
            if let line {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                fputs("\(line) at \(Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)\n", report)
                fflush(report)
            }
            usleep(UInt32(random.next() % 1500))
        }
        exit(0)
    }

    /// A new note in the folder of `note`; where the folder went away meanwhile nothing is made.
    private static func create(_ token: String, besides note: String, number: Int) -> String? {
        let path = "\((note as NSString).deletingLastPathComponent)/other-\(token).md"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let text = "Other \(number)\n\(token)\n"
        _ = text.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        return "ok \(token) create \(path)"
    }

    /// Appends in place; reported only when the token is at the path right after (a file
    /// renamed away meanwhile took it with it, where nobody looks).
    private static func append(_ token: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let line = "\(token)\n"
        _ = line.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains(line) else { return nil }
        return "ok \(token) append \(path)"
    }

    /// Reads the note, writes it with the token added to a temporary and puts that in its
    /// place, as editors and sync clients do — a careful one: the temporary is exchanged with
    /// the note (`renameat2(RENAME_EXCHANGE)`) and what came out must be the version it read,
    /// else that newer version (Notula's, say) goes back in place and nothing is written. A
    /// careless one would overwrite Notula's writes with its older reading, and no program can
    /// keep what another destroys.
    private static func replace(_ path: String, adding token: String, random: inout SplitMix) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var read = stat()
        fstat(fd, &read)
        let text = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = "\(folder)/.syncthing.tmp-\(random.next() % 1_000_000)"
        guard (try? (text + Data("\(token)\n".utf8)).write(to: URL(fileURLWithPath: temporary))) != nil else { return nil }
        guard exchange(temporary, path) == 0 else {
            unlink(temporary)
            return nil
        }
        var out = stat()
        if lstat(temporary, &out) == 0, out.st_ino == read.st_ino, out.st_size == read.st_size,
           out.st_mtim.tv_sec == read.st_mtim.tv_sec, out.st_mtim.tv_nsec == read.st_mtim.tv_nsec {
            unlink(temporary)
            return "ok \(token) replace \(path)"
        }
        // Another version arrived since the read: back in place (ours comes out and goes).
        if exchange(temporary, path) == 0 { unlink(temporary) }
        return nil
    }

    private static func exchange(_ first: String, _ second: String) -> Int32 {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return -1 }
        return unsafeBitCast(symbol, to: RenameAt2.self)(AT_FDCWD, first, AT_FDCWD, second, 2)  // RENAME_EXCHANGE
    }

    /// Deletes one of its own notes (never one it did not make): renamed aside first, so the
    /// tokens it reports gone are those of the very file it deleted (a version Notula put
    /// there a moment before goes with it, and is reported).
    private static func removeOwn(_ path: String, random: inout SplitMix) -> String? {
        guard (path as NSString).lastPathComponent.hasPrefix("other-") else { return nil }
        let aside = "\((path as NSString).deletingLastPathComponent)/.syncthing.deleting-\(random.next() % 1_000_000)"
        guard rename(path, aside) == 0 else { return nil }
        let text = (try? String(contentsOfFile: aside, encoding: .utf8)) ?? ""
        unlink(aside)
        let tokens = text.split(separator: "\n").filter { $0.hasPrefix("tok-") }
        return tokens.isEmpty ? nil : "gone " + tokens.joined(separator: " ")
    }

    /// The `.md` files under `folder`, hidden folders (`.notula`, the Trash) left out.
    private static func noteFiles(in folder: String) -> [String] {
        var found: [String] = []
        func walk(_ path: String, depth: Int) {
            guard depth < 4, let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
            for name in names where !name.hasPrefix(".") {
                let child = path + "/" + name
                var info = stat()
                guard lstat(child, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR { walk(child, depth: depth + 1) } else if name.hasSuffix(".md") { found.append(child) }
            }
        }
        walk(folder, depth: 0)
        return found
    }

    /// A small seeded generator: the same seed picks the same notes and actions.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
