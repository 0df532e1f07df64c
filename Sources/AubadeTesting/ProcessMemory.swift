import Foundation

/// A process's memory as Linux reports it in /proc/<pid>/status.
public enum ProcessMemory {
    /// Resident set size (VmRSS) in KiB, or nil when the process is gone.
    public static func residentKiB(_ pid: Int32) -> Int? {
        field("VmRSS", pid)
    }

    /// Peak resident set size (VmHWM) in KiB, or nil when the process is gone.
    public static func peakResidentKiB(_ pid: Int32) -> Int? {
        field("VmHWM", pid)
    }

    private static func field(_ name: String, _ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
