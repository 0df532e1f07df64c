import CGPIOD
import Foundation

/// libgpiod (v1 API) as linked at run time, and the GPIO chips this machine has.
public enum GPIOLibrary {
    public static var version: String {
        String(cString: gpiod_version_string())
    }

    /// Names of `/dev/gpiochip*` character devices, sorted; empty on a machine without GPIO.
    public static func chipNames(devDirectory: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devDirectory)) ?? []
        return names.filter { $0.hasPrefix("gpiochip") }.sorted()
    }

    /// Tries to open a chip by name; nil on success, otherwise a sentence with the system's reason.
    public static func probeChip(named name: String) -> String? {
        guard let chip = gpiod_chip_open_by_name(name) else {
            return "GPIO chip \(name) cannot be opened (\(String(cString: strerror(errno))))."
        }
        gpiod_chip_close(chip)
        return nil
    }
}
