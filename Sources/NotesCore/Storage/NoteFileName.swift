import Foundation

/// New notes get a name from their creation time plus a random suffix, chosen once and kept:
/// sync clients then never see renames while the user retitles a note.
public enum NoteFileName {
    private static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")

    public static func make(date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                           c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        let suffix = String((0..<5).map { _ in alphabet.randomElement() ?? "x" })
        return "note-\(stamp)-\(suffix).md"
    }
}
