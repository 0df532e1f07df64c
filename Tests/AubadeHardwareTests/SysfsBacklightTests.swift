import AubadeCore
import AubadeTesting
import Foundation
import Glibc
import Testing

@testable import AubadeHardware

/// The screen's backlight on fake /sys trees: each device is a folder under sys/devices/… with its
/// attribute files, linked from sys/class/backlight as the kernel does.
@Suite("Backlight from /sys/class/backlight")
struct SysfsBacklightTests {
    struct Device {
        var name: String
        var max: String? = "255"
        var brightness: String? = "200"
        var type: String? = "raw"
        var power: String?
    }

    static func tree(_ devices: [Device], classFolder: Bool = true) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("backlight")
        let fm = FileManager.default
        if classFolder { try fm.createDirectory(atPath: dir.file("sys/class/backlight"), withIntermediateDirectories: true) }
        for device in devices {
            let real = dir.file("sys/devices/platform/panel/backlight/\(device.name)")
            try fm.createDirectory(atPath: real, withIntermediateDirectories: true)
            for (file, value) in [
                ("max_brightness", device.max), ("brightness", device.brightness),
                ("type", device.type), ("bl_power", device.power),
            ] {
                if let value { try "\(value)\n".write(toFile: "\(real)/\(file)", atomically: false, encoding: .utf8) }
            }
            try fm.createSymbolicLink(atPath: dir.file("sys/class/backlight/\(device.name)"), withDestinationPath: real)
        }
        return dir
    }

    static func contents(_ dir: TemporaryDirectory, _ device: String, _ file: String) throws -> String {
        try String(contentsOfFile: dir.file("sys/class/backlight/\(device)/\(file)"), encoding: .utf8)
    }

    static func openError(_ dir: TemporaryDirectory, name: String? = nil) -> BacklightError? {
        do throws(BacklightError) {
            _ = try SysfsBacklight.open(root: dir.path, name: name)
            return nil
        } catch {
            return error
        }
    }

    @Test func noBacklightFolderOrAnEmptyOneIsOneSentenceAndANullBacklight() throws {
        for classFolder in [false, true] {
            let dir = try Self.tree([], classFolder: classFolder)
            let sentence = "No screen backlight was found in /sys/class/backlight; night dimming dims only the page."
            #expect(Self.openError(dir)?.message == sentence)
            let (backlight, problem) = SysfsBacklight.openOrNull(root: dir.path)
            #expect(problem?.message == sentence)
            #expect(backlight is NullBacklight)
            #expect(backlight.description == "no backlight")
            try backlight.set(percent: 10)
            try backlight.restore()
            #expect(throws: BacklightError(sentence)) { try backlight.read() }
        }
    }

    @Test func oneDeviceIsReadAndSetInPercentAndRestored() throws {
        let dir = try Self.tree([Device(name: "rpi_backlight")])
        let backlight = try SysfsBacklight.open(root: dir.path)
        #expect(backlight.name == "rpi_backlight")
        #expect(backlight.description == "backlight rpi_backlight (/sys/class/backlight/rpi_backlight, 0…255)")
        #expect(backlight.found == BacklightReading(brightness: 200, maxBrightness: 255))
        #expect(try backlight.read().percent == 78)
        #expect(try backlight.read().isPoweredOn)

        try backlight.set(percent: 10)
        #expect(try Self.contents(dir, "rpi_backlight", "brightness") == "26\n")
        #expect(try backlight.read() == BacklightReading(brightness: 26, maxBrightness: 255))
        try backlight.set(percent: 100)
        #expect(try Self.contents(dir, "rpi_backlight", "brightness") == "255\n")
        try backlight.restore()
        #expect(try Self.contents(dir, "rpi_backlight", "brightness") == "200\n")
        #expect(try backlight.read() == backlight.found)
    }

    @Test(
        "percent to raw: never 0 from set, 100 is the maximum",
        arguments: [
            (1, [1: 1, 10: 1, 50: 1, 100: 1, 0: 1, -3: 1]),
            (255, [1: 3, 10: 26, 50: 128, 99: 252, 100: 255, 0: 3, 250: 255]),
            (4095, [1: 41, 10: 410, 50: 2048, 100: 4095, 0: 41]),
        ])
    func rawLevels(max: Int, expected: [Int: Int]) throws {
        let dir = try Self.tree([Device(name: "panel", max: "\(max)", brightness: "\(max)")])
        let backlight = try SysfsBacklight.open(root: dir.path)
        for (percent, raw) in expected.sorted(by: { $0.key < $1.key }) {
            try backlight.set(percent: percent)
            #expect(try Self.contents(dir, "panel", "brightness") == "\(raw)\n", "\(percent)% of \(max)")
            #expect(BacklightReading.raw(percent: percent, maxBrightness: max) == raw)
        }
        try backlight.switchOff()
        #expect(try Self.contents(dir, "panel", "brightness") == "0\n")
        #expect(try backlight.read().percent == 0)
        try backlight.restore()
        #expect(try Self.contents(dir, "panel", "brightness") == "\(max)\n")
    }

    @Test func ofTwoDevicesTheFirstByNameIsChosenUnlessOneIsNamed() throws {
        let dir = try Self.tree([Device(name: "rpi_backlight"), Device(name: "10-0045", max: "31", brightness: "31")])
        #expect(SysfsBacklight.choose(["rpi_backlight", "10-0045"], root: dir.path) == ["10-0045", "rpi_backlight"])
        #expect(try SysfsBacklight.open(root: dir.path).name == "10-0045")
        let named = try SysfsBacklight.open(root: dir.path, name: "rpi_backlight")
        #expect(named.name == "rpi_backlight")
        #expect(named.maxBrightness == 255)
        #expect(
            Self.openError(dir, name: "intel_backlight")?.message
                == "The backlight 'intel_backlight' is not in /sys/class/backlight (found: 10-0045, rpi_backlight); night dimming dims only the page."
        )
    }

    @Test func firmwareBeatsPlatformBeatsRawWhateverTheNames() throws {
        let dir = try Self.tree([
            Device(name: "a_raw", type: "raw"), Device(name: "m_unknown", type: nil),
            Device(name: "z_firmware", type: "firmware"), Device(name: "p_platform", type: "platform"),
        ])
        #expect(
            SysfsBacklight.choose(["a_raw", "m_unknown", "p_platform", "z_firmware"], root: dir.path)
                == ["z_firmware", "p_platform", "a_raw", "m_unknown"])
        #expect(try SysfsBacklight.open(root: dir.path).name == "z_firmware")
    }

    @Test func anUnusableDeviceIsPassedOverAndTheOnlyOnesProblemIsSaid() throws {
        let dir = try Self.tree([Device(name: "a_broken", max: nil), Device(name: "b_good")])
        #expect(try SysfsBacklight.open(root: dir.path).name == "b_good")

        let alone = try Self.tree([Device(name: "a_broken", max: nil)])
        let missing = alone.file("sys/class/backlight/a_broken/max_brightness")
        #expect(Self.openError(alone)?.message == "The backlight a_broken cannot be used: \(missing): No such file or directory.")

        let zero = try Self.tree([Device(name: "dark", max: "0")])
        #expect(
            Self.openError(zero)?.message
                == "The backlight dark cannot be used: \(zero.file("sys/class/backlight/dark/max_brightness")) is 0, so it cannot be dimmed."
        )

        let garbage = try Self.tree([Device(name: "odd", brightness: "bright")])
        #expect(
            Self.openError(garbage)?.message
                == "The backlight odd cannot be read: \(garbage.file("sys/class/backlight/odd/brightness")): 'bright' is not a whole number."
        )
    }

    @Test func anUnreadableOrUnwritableBrightnessIsASentenceNotACrash() throws {
        let dir = try Self.tree([Device(name: "panel")])
        let backlight = try SysfsBacklight.open(root: dir.path)
        let file = dir.file("sys/class/backlight/panel/brightness")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        #expect(throws: BacklightError("The backlight panel cannot be read: \(file): Is a directory.")) { try backlight.read() }
        #expect(throws: BacklightError("The backlight panel did not take the new brightness (\(file): Is a directory).")) {
            try backlight.set(percent: 10)
        }
        #expect(throws: BacklightError.self) { try backlight.restore() }
        #expect(Self.openError(dir)?.message == "The backlight panel cannot be read: \(file): Is a directory.")
    }

    @Test func aDeviceThatGoesAwayIsSaidToHaveGone() throws {
        let dir = try Self.tree([Device(name: "panel")])
        let backlight = try SysfsBacklight.open(root: dir.path)
        try FileManager.default.removeItem(atPath: dir.file("sys/devices/platform/panel/backlight/panel"))
        #expect(
            throws: BacklightError(
                "The backlight panel has gone (\(dir.file("sys/class/backlight/panel/brightness")): No such file or directory).")
        ) {
            try backlight.set(percent: 50)
        }
    }

    @Test("without write permission (not as root, who may write anyway)", .enabled(if: getuid() != 0))
    func aReadOnlyFileSaysWhatToDo() throws {
        let dir = try Self.tree([Device(name: "panel")])
        let file = dir.file("sys/class/backlight/panel/brightness")
        #expect(chmod(file, 0o444) == 0)
        let backlight = try SysfsBacklight.open(root: dir.path)
        #expect(
            throws: BacklightError(
                "The clock may not change the backlight panel (\(file): Permission denied); a udev rule must give the aubade group write access to its brightness and bl_power."
            )
        ) {
            try backlight.set(percent: 10)
        }
        #expect(try Self.contents(dir, "panel", "brightness") == "200\n")
    }

    @Test func theDeploymentFailuresEachHaveTheirSentence() throws {
        let dir = try Self.tree([Device(name: "rpi_backlight")])
        let backlight = try SysfsBacklight.open(root: dir.path)
        let file = dir.file("sys/class/backlight/rpi_backlight/brightness")
        let real = dir.file("sys/devices/platform/panel/backlight/rpi_backlight")
        for code in [EACCES, EPERM] {
            #expect(
                backlight.sentence(for: .init(path: file, code: code))
                    == "The clock may not change the backlight rpi_backlight (\(file): \(String(cString: strerror(code)))); a udev rule must give the aubade group write access to its brightness and bl_power."
            )
        }
        #expect(
            backlight.sentence(for: .init(path: file, code: EROFS))
                == "The backlight rpi_backlight cannot be changed: /sys is read-only for the clock (\(file): Read-only file system); with ProtectKernelTunables=yes the service needs ReadWritePaths=\(real)."
        )
        #expect(
            backlight.sentence(for: .init(path: file, code: ENODEV))
                == "The backlight rpi_backlight has gone (\(file): No such device).")
        #expect(
            backlight.sentence(for: .init(path: file, code: EINVAL))
                == "The backlight rpi_backlight did not take the new brightness (\(file): Invalid argument).")
    }

    @Test func aBlankedScreenIsPoweredOnWhenSetAndBlankedAgainWhenRestored() throws {
        let dir = try Self.tree([Device(name: "panel", brightness: "100", power: "4")])
        let backlight = try SysfsBacklight.open(root: dir.path)
        #expect(backlight.found == BacklightReading(brightness: 100, maxBrightness: 255, power: 4))
        #expect(!backlight.found.isPoweredOn)
        #expect(backlight.found.description == "100/255 (39%), powered down (bl_power 4)")
        try backlight.set(percent: 20)
        #expect(try Self.contents(dir, "panel", "bl_power") == "0\n")
        #expect(try Self.contents(dir, "panel", "brightness") == "51\n")
        #expect(try backlight.read().isPoweredOn)
        try backlight.restore()
        #expect(try Self.contents(dir, "panel", "bl_power") == "4\n")
        #expect(try Self.contents(dir, "panel", "brightness") == "100\n")
    }

    @Test func aPoweredScreenIsLeftAlone() throws {
        let dir = try Self.tree([Device(name: "panel", power: "0")])
        let backlight = try SysfsBacklight.open(root: dir.path)
        // bl_power without its newline: any write would add one. Already 0, it is never written.
        try "0".write(toFile: dir.file("sys/class/backlight/panel/bl_power"), atomically: false, encoding: .utf8)
        try backlight.set(percent: 30)
        try backlight.restore()
        #expect(try Self.contents(dir, "panel", "bl_power") == "0")
        #expect(try Self.contents(dir, "panel", "brightness") == "200\n")
    }

    @Test func theFakeRecordsWhatItWasToldAndFailsWhenAsked() throws {
        let fake = FakeBacklight(brightness: 80, maxBrightness: 100, power: 4)
        try fake.set(percent: 10)
        try fake.set(percent: 100)
        #expect(fake.percents == [10, 100])
        #expect(fake.current == BacklightReading(brightness: 100, maxBrightness: 100, power: 0))
        fake.fail(with: "The backlight fake has gone.")
        #expect(throws: BacklightError("The backlight fake has gone.")) { try fake.set(percent: 5) }
        #expect(fake.percents == [10, 100])
        fake.fail(with: nil)
        try fake.restore()
        #expect(try fake.read() == BacklightReading(brightness: 80, maxBrightness: 100, power: 4))
    }
}
