import Foundation

/// New notes get a name from their creation time plus a random suffix, chosen once and kept:
/// sync clients then never see renames while the user retitles a note.
public enum NoteFileName: Sendable {
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

    /// The creation time a name made by `make` carries (UTC, to the second), or nil for any
    /// other name (a note's id, its notebook first, will do). Linux gives Swift no portable birth time, and this one survives copies,
    /// moves and syncing, which reset a file's own times.
    public static func creationDate(of name: String) -> Date? {
        // An id in a notebook ("Work/note-…") is named the same way.
        let parts = (name.split(separator: "/").last ?? "").split(separator: "-")
        guard parts.count == 4, parts[0] == "note", parts[1].count == 8, parts[2].count == 6,
              let day = Int(parts[1]), let time = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let components = DateComponents(year: day / 10000, month: day / 100 % 100, day: day % 100,
                                        hour: time / 10000, minute: time / 100 % 100, second: time % 100)
        return calendar.date(from: components)
    }
}
