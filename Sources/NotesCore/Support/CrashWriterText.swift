import Foundation

/// The texts the crash test's writer saves, and the check that a file holds one of them whole.
public enum CrashWriterText: Sendable {
    public static func version(_ n: Int) -> String {
        // Lines of 40 words: a note with a line past `LargeNote.maximumLineBytes` would open
        // read-only (the safe mode), and the writer could not save it.
        let words = 50 + (n * 7919) % 3000
        let line = String(repeating: "word\(n % 97) ", count: 40) + "\n"
        let filler = String(repeating: line, count: words / 40) + String(repeating: "word\(n % 97) ", count: words % 40)
        return "version \(n)\n\(filler)\nend \(n)\n"
    }

    /// The version number when `text` is exactly one complete version; nil when torn or empty.
    public static func completeVersion(in text: String) -> Int? {
        guard text.hasPrefix("version "), let newline = text.firstIndex(of: "\n"),
              let n = Int(text[text.index(text.startIndex, offsetBy: 8)..<newline]) else { return nil }
        return text == version(n) ? n : nil
    }
}
