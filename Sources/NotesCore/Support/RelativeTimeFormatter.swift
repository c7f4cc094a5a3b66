import Foundation

/// "Just now", "5 minutes ago", "Yesterday", "3 days ago", then a date: how the list says when.
/// `inSentence` gives the form that goes inside a sentence ("Deleted yesterday"): its own
/// translations (context "in a sentence"), since only the language knows which letters to lower.
public struct RelativeTimeFormatter {
    public var calendar: Calendar
    private let dateFormatter: DateFormatter

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
            return trn("%d minute ago", "%d minutes ago", Int(seconds / 60))
        }
        if calendar.isDate(date, inSameDayAs: now) {
            return trn("%d hour ago", "%d hours ago", Int(seconds / 3600))
        }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date),
                                           to: calendar.startOfDay(for: now)).day ?? 0
        // TRANSLATORS: when a note changed, alone in the list; "yesterday" in a sentence is the next string.
        if days == 1 { return inSentence ? trc("in a sentence", "yesterday") : tr("Yesterday") }
        if days > 1 && days < 7 { return trn("%d day ago", "%d days ago", days) }
        return dateFormatter.string(from: date)
    }
}
