import AubadeApp
import Foundation

/// The time checks: is the system clock synchronised (R7), and is there a real-time clock to keep the time
/// through a power cut — a Pi has none of its own, and an alarm clock that boots without network must still
/// know the time.
enum ClockProbe {
    static func synchronisation(synchronised: Bool) -> DoctorCheck {
        if synchronised { return .ok("clock", "The system clock is synchronised.") }
        return .warning(
            "clock", "The system clock is not synchronised, so alarms ring by the best time known (R7).",
            fix:
                "Check the network time service (timedatectl status; systemd-timesyncd or chrony); an RTC module keeps the time when there is no network."
        )
    }

    /// The real-time clocks the kernel knows (/sys/class/rtc/rtcN), with their drivers' names.
    static func realTimeClocks(root: String = "") -> [(device: String, name: String)] {
        let folder = root + "/sys/class/rtc"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.filter { $0.hasPrefix("rtc") }.sorted().map { device in
            let name =
                (try? String(contentsOfFile: "\(folder)/\(device)/name", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return (device, name)
        }
    }

    static func rtc(root: String = "") -> DoctorCheck {
        let clocks = realTimeClocks(root: root)
        guard let first = clocks.first else {
            return .warning(
                "rtc",
                "There is no real-time clock (/sys/class/rtc is empty): after a power cut without network the clock would start at the wrong time.",
                fix:
                    "Fit a DS3231 RTC module on I2C and add dtoverlay=i2c-rtc,ds3231 to /boot/firmware/config.txt (a Pi 5 has an RTC: fit its battery); see hardware/README.md."
            )
        }
        return .ok(
            "rtc",
            "Real-time clock \(first.device)\(first.name.isEmpty ? "" : " (\(first.name))") keeps the time while the power is off."
        )
    }
}
