#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// HTTP's IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), formatted and parsed without a shared formatter.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Dates outside years 1–9999, which IMF-fixdate cannot spell, are written as the nearest it can.
    static func format(_ date: Date) -> String {
        format(second: second(of: date))
    }

    /// The second `format` writes for `date`: its Unix time rounded down, within years 1–9999.
    static func second(of date: Date) -> TimeInterval {
        let interval = date.timeIntervalSince1970
        return interval.isNaN ? 0 : min(max(interval, minimum), maximum).rounded(.down)
    }

    /// `second`, a value of ``second(of:)``.
    static func format(second: TimeInterval) -> String {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        func year(_ value: Int32) -> String { String(repeating: "0", count: max(0, 4 - "\(value)".count)) + "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(year(parts.tm_year + 1900)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the first and last IMF-fixdate.
    private static let minimum: TimeInterval = -62_135_596_800, maximum: TimeInterval = 253_402_300_799

    /// The date of an IMF-fixdate; nil for anything else (obsolete forms are ignored, as the header then is).
    /// Each field is checked against its range first: a header's numbers are a client's to choose.
    static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", fields[1].count == 2, let day = Int32(fields[1]),
              (1...31).contains(day), let month = months.firstIndex(of: String(fields[2])),
              fields[3].count == 4, let year = Int32(fields[3]), year >= 1 else { return nil }
        let clockFields = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        let clock = clockFields.compactMap { $0.count == 2 ? Int32($0) : nil }
        guard clockFields.count == 3, clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]),
              (0...60).contains(clock[2]) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = clock[0]
        parts.tm_min = clock[1]
        parts.tm_sec = clock[2]
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
