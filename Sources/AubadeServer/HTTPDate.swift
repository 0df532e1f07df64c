import Foundation
import Synchronization

/// The `Date` header's value (RFC 9110 IMF-fixdate, "Sun, 06 Nov 1994 08:49:37 GMT"), made when a response
/// asks for it and kept for the rest of that second — so a server that answers nothing wakes nothing, and a
/// burst of requests formats the date once a second.
final class HTTPDate: Sendable {
    private let cache = Mutex<(second: Int, text: String)>((-1, ""))

    /// The header for now.
    func now() -> String {
        text(for: Int(Date().timeIntervalSince1970))
    }

    /// The header for Unix second `second`.
    func text(for second: Int) -> String {
        if let hit = cache.withLock({ $0.second == second ? $0.text : nil }) { return hit }
        let text = HTTPDate.format(second)
        cache.withLock { $0 = (second, text) }
        return text
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate of Unix second `second`, in UTC (the proleptic Gregorian calendar, as HTTP wants).
    static func format(_ second: Int) -> String {
        var t = time_t(second)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + Int(parts.tm_year)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
