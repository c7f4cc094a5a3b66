import Foundation
import NotesCore

/// Links and tags in the library index for `make bench` (scripts/bench_links.py prints them
/// against the targets): a library of `count` notes, each linking up to three others by
/// title and holding up to two of 300 tags (some nested), indexed as the app does (rows,
/// then texts); then, on the index's reading connection as the app asks: `[[` completion
/// for 300 typed prefixes (target 16 ms), a note's backlinks for 300 notes (5 ms), a tag's
/// notes for 100 tags (5 ms) and the sidebar's tag counts.
enum LinksBenchmark {
    static func run(in folder: URL, count: Int) -> String {
        let library = folder.appendingPathComponent("Notes")
        try? FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let words = ["garden", "budget", "recipe", "meeting", "travel", "reading", "project", "health", "music", "school",
                     "Café", "Zürich", "journal", "ideas", "plans"]
        var random = SplitMix(seed: 32)
        let titles = (0..<count).map { "\(words[$0 % words.count].capitalized) note \($0)" }
        let tags = (0..<300).map { $0 % 5 == 0 ? "area\($0 % 20)/topic\($0)" : "tag\($0)" }
        for index in 0..<count {
            var text = titles[index] + "\n\n"
            for _ in 0..<random.next(3) { text += "See [[\(titles[random.next(count)])]] for more. " }
            for _ in 0..<random.next(2) { text += "#\(tags[random.next(tags.count)]) " }
            text += "\n" + String(repeating: "Some words of the note's body. ", count: 8) + "\n"
            try? Data(text.utf8).write(to: library.appendingPathComponent(String(format: "n%06d.md", index)))
        }
        var figures: [String: Double] = ["notes": Double(count)]
        guard let index = try? LibraryIndex(library: NoteLibrary(folder: library), cacheFolder: folder.appendingPathComponent("cache")) else {
            return "{}"
        }
        var started = DispatchTime.now()
        _ = try? index.reconcile { _ in }
        index.indexAllWaitingTexts()
        figures["index_s"] = milliseconds(since: started) / 1000
        figures["links"] = Double(index.backlinks(toNote: "n000000.md", title: titles[0]).count)

        func time(_ runs: Int, _ body: (Int) -> Void) -> (median: Double, worst: Double) {
            var times: [Double] = []
            for run in 0..<runs {
                let before = DispatchTime.now()
                body(run)
                times.append(milliseconds(since: before))
            }
            times.sort()
            return (times[times.count / 2], times.last ?? 0)
        }
        var found = 0
        started = DispatchTime.now()
        index.prepareTitleKeys()  // as the window does after each change, in the background
        figures["title_keys_ms"] = milliseconds(since: started)
        let prefixes = (0..<300).map { run -> String in
            let title = titles[random.next(count)]
            return String(title.prefix(2 + run % 8))  // "Ga" … "Garden n": few and many matches
        }
        let completion = time(prefixes.count) { found += index.titles(matching: prefixes[$0]).count }
        figures["completion_median_ms"] = completion.median
        figures["completion_worst_ms"] = completion.worst
        let absent = time(50) { found += index.titles(matching: "zq\($0)x").count }  // nothing matches: the whole scan
        figures["completion_none_median_ms"] = absent.median
        figures["completion_none_worst_ms"] = absent.worst
        let notes = (0..<300).map { _ in random.next(count) }
        let backlinks = time(notes.count) { found += index.backlinks(toNote: String(format: "n%06d.md", notes[$0]), title: titles[notes[$0]]).count }
        figures["backlinks_median_ms"] = backlinks.median
        figures["backlinks_worst_ms"] = backlinks.worst
        let tagged = time(100) { found += index.notes(taggedWith: TitleKey.of(tags[($0 * 7) % tags.count])).count }
        figures["tag_notes_median_ms"] = tagged.median
        figures["tag_notes_worst_ms"] = tagged.worst
        started = DispatchTime.now()
        found += index.tagCounts().count
        figures["tag_counts_ms"] = milliseconds(since: started)
        figures["answers"] = Double(found)
        index.close()
        let data = (try? JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static func milliseconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
    }

    /// Repeatable numbers (SplitMix64).
    private struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ upTo: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(max(upTo, 1)))
        }
    }
}
