import CTimex
public import Foundation

/// Whether the kernel believes the system clock is synchronised (R7): `adjtimex` reports `TIME_ERROR` while
/// NTP (timesyncd, chrony) has not set it — the usual state of a Raspberry Pi, which has no RTC, right after
/// boot. Read-only: the query changes nothing.
public enum ClockSync {
    public static func isSynchronised() -> Bool {
        aubade_clock_synchronised() == 1
    }
}

/// The system's time zone as it is now: `$TZ`, else the `/etc/localtime` link, else `/etc/timezone`.
/// (Foundation's `TimeZone.current` is read once per process on Linux, so a change would go unnoticed.)
public enum SystemZone {
    public static func current() -> TimeZone {
        let env = ProcessInfo.processInfo.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
        if let env, !env.isEmpty, let zone = TimeZone(identifier: env) { return zone }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
            let range = target.range(of: "zoneinfo/"),
            let zone = TimeZone(identifier: String(target[range.upperBound...]))
        {
            return zone
        }
        if let text = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8),
            let zone = TimeZone(identifier: text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return zone
        }
        return TimeZone.current
    }
}
