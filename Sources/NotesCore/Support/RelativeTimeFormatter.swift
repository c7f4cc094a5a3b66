import Foundation

/// "Just now", "5 minutes ago", "Yesterday", "3 days ago", then a date: how the list says when.
/// `inSentence` gives the form that goes inside a sentence ("Deleted yesterday"): its own
/// translations (context "in a sentence"), since only the language knows which letters to lower.
/// The list asks once per row it binds: the starts of the last seven days are worked out once
/// per day, not per row (calendar maths per row was half of a search's list update), and each
/// phrase and date is made once (ICU's date formatting was a tenth of clearing a search).
public final class RelativeTimeFormatter {
    public let calendar: Calendar
    private let dateFormatter: DateFormatter
    /// The start of today and of the six days before it, newest first, and of tomorrow: valid
    /// while `now` falls between the first and `tomorrow`.
    private var dayStarts: [Date] = []
    private var tomorrow = Date.distantPast
    /// Phrases made ("3 hours ago"), by kind and number.
    private var phrases: [Int: String] = [:]
    /// Dates formatted, by quarter hour since 2001: every time zone's offset is a multiple of
    /// 15 minutes, so a quarter hour never spans two local days.
    private var dates: [Int: String] = [:]

    public init(calendar: Calendar = .current, locale: Locale = Localization.locale) {
        self.calendar = calendar
        dateFormatter = DateFormatter()
        dateFormatter.locale = locale
        dateFormatter.timeZone = calendar.timeZone
        dateFormatter.setLocalizedDateFormatFromTemplate("d MMM y")
    }

    public func string(for date: Date, now: Date = Date(), inSentence: Bool = false) -> String {
        let seconds = now.timeIntervalSince(date)
        // TRANSLATORS: when a note changed, alone in the list; "just now" in a sentence is the next string.
        if seconds < 60 { return inSentence ? trc("in a sentence", "just now") : tr("Just now") }
        if seconds < 3600 {
            return phrase(0, Int(seconds / 60)) { trn("%d minute ago", "%d minutes ago", $0) }
        }
        let starts = startsOfDays(before: now)
        // `days`: how many midnights lie between the date and now.
        guard let days = starts.firstIndex(where: { date >= $0 }) else { return formatted(date) }
        if days == 0 { return phrase(1, Int(seconds / 3600)) { trn("%d hour ago", "%d hours ago", $0) } }
        // TRANSLATORS: when a note changed, alone in the list; "yesterday" in a sentence is the next string.
        if days == 1 { return inSentence ? trc("in a sentence", "yesterday") : tr("Yesterday") }
        return phrase(2, days) { trn("%d day ago", "%d days ago", $0) }
    }

    private func phrase(_ kind: Int, _ number: Int, _ make: (Int) -> String) -> String {
        let key = number * 4 + kind
        if let made = phrases[key] { return made }
        let made = make(number)
        phrases[key] = made
        return made
    }

    private func formatted(_ date: Date) -> String {
        let quarter = date.timeIntervalSinceReferenceDate / 900
        guard quarter.isFinite, abs(quarter) < 1e12 else { return dateFormatter.string(from: date) }
        let key = Int(quarter.rounded(.down))
        if let made = dates[key] { return made }
        if dates.count > 20_000 { dates.removeAll() }
        let made = dateFormatter.string(from: date)
        dates[key] = made
        return made
    }

    private func startsOfDays(before now: Date) -> [Date] {
        if let today = dayStarts.first, now >= today, now < tomorrow { return dayStarts }
        let today = calendar.startOfDay(for: now)
        tomorrow = calendar.date(byAdding: .day, value: 1, to: today).map(calendar.startOfDay) ?? today.addingTimeInterval(86400)
        dayStarts = (0..<7).map { back in
            calendar.date(byAdding: .day, value: -back, to: today).map(calendar.startOfDay) ?? today.addingTimeInterval(-86400 * Double(back))
        }
        return dayStarts
    }
}
