import Foundation

/// "Just now", "5 minutes ago", "Yesterday", "3 days ago", then a date: how the list says when.
public struct RelativeTimeFormatter {
    public var calendar: Calendar
    private let dateFormatter: DateFormatter

    public init(calendar: Calendar = .current, locale: Locale = .current) {
        self.calendar = calendar
        dateFormatter = DateFormatter()
        dateFormatter.locale = locale
        dateFormatter.timeZone = calendar.timeZone
        dateFormatter.setLocalizedDateFormatFromTemplate("d MMM y")
    }

    public func string(for date: Date, now: Date = Date()) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 { return "Just now" }
        if seconds < 3600 {
            let minutes = Int(seconds / 60)
            return minutes == 1 ? "1 minute ago" : "\(minutes) minutes ago"
        }
        if calendar.isDate(date, inSameDayAs: now) {
            let hours = Int(seconds / 3600)
            return hours == 1 ? "1 hour ago" : "\(hours) hours ago"
        }
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date),
                                           to: calendar.startOfDay(for: now)).day ?? 0
        if days == 1 { return "Yesterday" }
        if days > 1 && days < 7 { return "\(days) days ago" }
        return dateFormatter.string(from: date)
    }
}
