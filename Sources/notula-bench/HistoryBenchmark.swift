import Foundation
import Synchronization
import NotesCore

/// The note history's figures for `make bench` (scripts/bench_history.py prints them against
/// the targets): what keeping a version costs the caller's (main) thread for a 10 KB and a
/// 1 MB note, what it costs the history's queue, and the disk taken by 1,000 edits of a
/// 10 KB note (an injected clock: an edit every 15 s, the note left every 100 edits).
enum HistoryBenchmark {
    static func run(in folder: URL) -> String {
        var figures: [String: Double] = [:]
        for (label, size) in [("10k", 10_000), ("1m", 1_000_000)] {
            let history = NoteHistory(folder: folder.appendingPathComponent("history-\(label)"), policy: HistoryPolicy(editingInterval: 0))
            let texts = (0..<60).map { index in Self.text(size: size, seed: index) }
            var calls: [Double] = []
            let url = folder.appendingPathComponent("note-\(label).md")
            try? Data(texts[0].utf8).write(to: url)  // versions are kept of notes that are on disk
            let start = DispatchTime.now()
            for text in texts {
                // What the document does on the main thread: hand over the text; encoding,
                // compressing and writing happen on the history's queue.
                let before = DispatchTime.now()
                history.record(of: url, origin: .closed) { Data(text.utf8) }
                calls.append(milliseconds(since: before))
            }
            history.waitUntilIdle()
            calls.sort()
            figures["main_median_ms_\(label)"] = calls[calls.count / 2]
            figures["main_max_ms_\(label)"] = calls.last ?? 0
            figures["queue_ms_per_version_\(label)"] = milliseconds(since: start) / Double(texts.count)
        }
        let clock = Clock()
        let editsFolder = folder.appendingPathComponent("history-edits")
        do {
            let history = NoteHistory(folder: editsFolder, clock: { clock.now })
            let note = folder.appendingPathComponent("edited.md")
            var text = self.text(size: 10_000, seed: 99)
            try? Data(text.utf8).write(to: note)
            for edit in 1...1000 {
                // A few words changed somewhere, as typing does.
                let position = text.index(text.startIndex, offsetBy: text.count * (edit * 7919 % 1000) / 1000)
                text.insert(contentsOf: " edit\(edit)", at: position)
                let snapshot = text
                history.record(of: note, origin: edit % 100 == 0 ? .closed : .edited) { Data(snapshot.utf8) }
                history.waitUntilIdle()  // each version dated by the clock as it is now
                clock.advance(15)
            }
            figures["edits_versions"] = Double((try? history.versions(of: note).count) ?? 0)
            figures["edits_stored_bytes"] = Double((try? history.storedBytes()) ?? 0)
            figures["edits_open_bytes"] = Double(fileBytes(editsFolder))
            figures["edits_text_bytes"] = Double(text.utf8.count)
        }
        // The history closed (as when Notula quits): its log folded into the file.
        figures["edits_file_bytes"] = Double(fileBytes(editsFolder))
        let pairs = figures.keys.sorted().map { "\"\($0)\": \(figures[$0]!)" }
        return "{" + pairs.joined(separator: ", ") + "}"
    }

    private static func text(size: Int, seed: Int) -> String {
        let words = ["evening", "draft", "notes", "paragraph", "write", "sync", "alpha", "garden", "letter", "river"]
        var text = "Note \(seed)\n"
        var index = seed
        while text.utf8.count < size {
            index = (index &* 1_103_515_245 &+ 12345) & 0x7fff_ffff
            text += words[index % words.count] + (index % 13 == 0 ? "\n" : " ")
        }
        return text
    }

    private static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    }

    private static func fileBytes(_ folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
        }
    }

    /// Advanced by the benchmark's thread, read on the history's queue.
    final class Clock: Sendable {
        private let date = Mutex(Date())
        var now: Date { date.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
    }
}
