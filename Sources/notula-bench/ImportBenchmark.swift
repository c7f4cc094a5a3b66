import Foundation
import NotesCore

/// Importing Gnote notes for `make bench` (scripts/bench_import.py writes the notes, then
/// prints the figures): every `.note` file of a folder imported into an empty library as the
/// app does (`NoteImport.run`), timed, with the process's peak memory before and after.
enum ImportBenchmark {
    static func run(source: URL, library: URL) -> String {
        try? FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        let files = NoteImport.noteFiles(in: source)
        let before = peakKilobytes()
        let started = DispatchTime.now()
        let report = NoteImport.run(files, into: library)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let figures: [String: Double] = [
            "files": Double(files.count), "imported": Double(report.imported.count), "skipped": Double(report.skipped.count),
            "seconds": seconds, "peak_before_mb": before / 1024, "peak_after_mb": peakKilobytes() / 1024,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// VmHWM: the most memory the process has held (kB).
    private static func peakKilobytes() -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
