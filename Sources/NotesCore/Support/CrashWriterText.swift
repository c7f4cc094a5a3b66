import Foundation

/// The texts the crash test's writer saves, and the check that a file holds one of them whole.
public enum CrashWriterText {
    public static func version(_ n: Int) -> String {
        let filler = String(repeating: "word\(n % 97) ", count: 50 + (n * 7919) % 3000)
        return "version \(n)\n\(filler)\nend \(n)\n"
    }

    /// The version number when `text` is exactly one complete version; nil when torn or empty.
    public static func completeVersion(in text: String) -> Int? {
        guard text.hasPrefix("version "), let newline = text.firstIndex(of: "\n"),
              let n = Int(text[text.index(text.startIndex, offsetBy: 8)..<newline]) else { return nil }
        return text == version(n) ? n : nil
    }
}
