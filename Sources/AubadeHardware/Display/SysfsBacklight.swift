public import AubadeCore
import Glibc

/// A backlight under `/sys/class/backlight/<name>` (the Raspberry Pi touchscreen's `rpi_backlight`, or
/// `10-0045` with the newer DSI driver; a laptop's `intel_backlight`): reads `max_brightness`,
/// `brightness` and, when present, `bl_power`; writes `brightness` (and `bl_power` 0 to unblank). See
/// `Backlight` for the contract. `root` prefixes every path, so tests build a fake sysfs tree.
///
/// The brightness found at `open` is kept and put back by `restore()`. After a crash at night that is the
/// dim level the crashed daemon left, so the daemon sets its target right after opening, and restores only
/// at a graceful end.
///
/// Permissions: sysfs makes `brightness` writable by root alone. The clock runs as the `aubade` user, so a
/// udev rule must hand the file to its group, and a unit with
/// `ProtectKernelTunables=yes` (/sys read-only) must allow the device's real folder with `ReadWritePaths=`;
/// each of these failures is reported as its own sentence.
public struct SysfsBacklight: Backlight {
    public static let classDirectory = "/sys/class/backlight"

    /// The device's name in `/sys/class/backlight`.
    public let name: String
    public let root: String
    /// `max_brightness`, read at open.
    public let maxBrightness: Int
    /// What the device showed at open: what `restore()` puts back.
    public let found: BacklightReading

    /// Opens the backlight `name`, or — when `name` is nil — the one `choose` picks among those present.
    /// Throws one sentence when there is none, the named one is missing, or it cannot be read.
    public static func open(root: String = "", name: String? = nil) throws(BacklightError) -> SysfsBacklight {
        let present = SysfsFile.list(root + classDirectory)
        if let name {
            guard present.contains(name) else {
                let others = present.isEmpty ? "there is none" : "found: " + present.joined(separator: ", ")
                throw BacklightError(
                    "The backlight '\(name)' is not in \(classDirectory) (\(others)); night dimming dims only the page.")
            }
            return try SysfsBacklight(name: name, root: root)
        }
        guard !present.isEmpty else {
            throw BacklightError("No screen backlight was found in \(classDirectory); night dimming dims only the page.")
        }
        var firstProblem: BacklightError?
        for candidate in choose(present, root: root) {
            do throws(BacklightError) {
                return try SysfsBacklight(name: candidate, root: root)
            } catch {
                firstProblem = firstProblem ?? error
            }
        }
        throw firstProblem ?? BacklightError("No usable screen backlight was found in \(classDirectory).")
    }

    /// The backlight devices present under `root`'s /sys/class/backlight, by name.
    public static func present(root: String = "") -> [String] {
        SysfsFile.list(root + classDirectory)
    }

    /// `open`, or a `NullBacklight` with the reason when it fails: what the daemon drives, and the one
    /// warning to report (nil when a backlight was opened).
    public static func openOrNull(root: String = "", name: String? = nil) -> (backlight: any Backlight, problem: BacklightError?)
    {
        do throws(BacklightError) {
            return (try open(root: root, name: name), nil)
        } catch {
            return (NullBacklight(reason: error.message), error)
        }
    }

    /// The devices in `names` in the order `open` tries them: by their `type` as the kernel's ABI document
    /// (sysfs-class-backlight) asks userspace to prefer them — `firmware`, then `platform`, then `raw`, then
    /// an unreadable or unknown type — and within one type by name, in byte order. The first that opens is
    /// used, so a machine with several backlights always drives the same one; `open(name:)` drives
    /// another.
    public static func choose(_ names: [String], root: String = "") -> [String] {
        func rank(_ name: String) -> Int {
            let type = try? SysfsFile.read("\(root)\(classDirectory)/\(name)/type", limit: 64)
            return ["firmware", "platform", "raw"].firstIndex(of: type ?? "") ?? 3
        }
        return names.map { (rank: rank($0), bytes: Array($0.utf8), name: $0) }
            .sorted { a, b in a.rank != b.rank ? a.rank < b.rank : a.bytes.lexicographicallyPrecedes(b.bytes) }
            .map(\.name)
    }

    private init(name: String, root: String) throws(BacklightError) {
        self.name = name
        self.root = root
        let folder = "\(root)\(SysfsBacklight.classDirectory)/\(name)"
        do throws(SysfsFile.ReadError) {
            let max = try SysfsAttribute.integer("\(folder)/max_brightness")
            guard max >= 1 else {
                throw SysfsFile.ReadError(message: "\(folder)/max_brightness is \(max), so it cannot be dimmed")
            }
            maxBrightness = max
        } catch {
            throw BacklightError("The backlight \(name) cannot be used: \(error.message).")
        }
        found = try SysfsBacklight.reading(name: name, folder: folder, maxBrightness: maxBrightness)
    }

    public var description: String {
        "backlight \(name) (\(SysfsBacklight.classDirectory)/\(name), 0…\(maxBrightness))"
    }

    public func read() throws(BacklightError) -> BacklightReading {
        try SysfsBacklight.reading(
            name: name, folder: "\(root)\(SysfsBacklight.classDirectory)/\(name)",
            maxBrightness: maxBrightness)
    }

    private static func reading(name: String, folder: String, maxBrightness: Int) throws(BacklightError) -> BacklightReading {
        do throws(SysfsFile.ReadError) {
            let brightness = try SysfsAttribute.integer("\(folder)/brightness")
            let power = SysfsFile.exists("\(folder)/bl_power") ? try SysfsAttribute.integer("\(folder)/bl_power") : nil
            return BacklightReading(brightness: brightness, maxBrightness: maxBrightness, power: power)
        } catch {
            throw BacklightError("The backlight \(name) cannot be read: \(error.message).")
        }
    }

    public func set(percent: Int) throws(BacklightError) {
        try write(BacklightReading.raw(percent: percent, maxBrightness: maxBrightness), to: "brightness")
        try unblank()
    }

    public func switchOff() throws(BacklightError) {
        try write(0, to: "brightness")
    }

    public func restore() throws(BacklightError) {
        try write(found.brightness, to: "brightness")
        if let power = found.power, SysfsFile.exists(file("bl_power")) {
            let now = try? SysfsAttribute.integer(file("bl_power"))
            if now != power { try write(power, to: "bl_power") }
        }
    }

    /// Whether the clock may write the brightness (and `bl_power`, when there is one), asked with access(2) so
    /// that nothing changes on the screen: nil when it may, else the sentence `set` would throw (no permission, a
    /// read-only /sys). For `aubade doctor`.
    public func writable() -> BacklightError? {
        for attribute in ["brightness", "bl_power"] where attribute == "brightness" || SysfsFile.exists(file(attribute)) {
            if access(file(attribute), W_OK) != 0 {
                return BacklightError(sentence(for: SysfsAttribute.WriteFailure(path: file(attribute), code: errno)))
            }
        }
        return nil
    }

    /// Writes `bl_power` 0 when the device has one and it is not already 0 (or cannot be read).
    private func unblank() throws(BacklightError) {
        guard SysfsFile.exists(file("bl_power")) else { return }
        if (try? SysfsAttribute.integer(file("bl_power"))) == 0 { return }
        try write(0, to: "bl_power")
    }

    private func write(_ value: Int, to attribute: String) throws(BacklightError) {
        do throws(SysfsAttribute.WriteFailure) {
            try SysfsAttribute.write(value, to: file(attribute))
        } catch {
            throw BacklightError(sentence(for: error))
        }
    }

    /// The failure as one sentence, with what to do about the two that a deployment causes.
    func sentence(for failure: SysfsAttribute.WriteFailure) -> String {
        switch failure.code {
        case EACCES, EPERM:
            return
                "The clock may not change the backlight \(name) (\(failure.message)); a udev rule must give the aubade group write access to its brightness and bl_power."
        case EROFS:
            let real = SysfsAttribute.resolved("\(root)\(SysfsBacklight.classDirectory)/\(name)")
            return
                "The backlight \(name) cannot be changed: /sys is read-only for the clock (\(failure.message)); with ProtectKernelTunables=yes the service needs ReadWritePaths=\(real)."
        case ENOENT, ENODEV, ENXIO:
            return "The backlight \(name) has gone (\(failure.message))."
        default:
            return "The backlight \(name) did not take the new brightness (\(failure.message))."
        }
    }

    private func file(_ attribute: String) -> String {
        "\(root)\(SysfsBacklight.classDirectory)/\(name)/\(attribute)"
    }
}
