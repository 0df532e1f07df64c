import AubadeCore
import AubadeHardware
import AubadeTesting
import Foundation
import Testing

/// The IIO reader against fake sysfs trees built in a temp folder.
@Suite("IIO accelerometer", .serialized)  // one sampling thread at a time, so they can be counted
struct IIOAccelerometerTests {
    static let devices = "sys/bus/iio/devices"

    /// Writes `files` (name → content) into iio:deviceN of a fake tree.
    static func device(_ n: Int, in dir: TemporaryDirectory, _ files: [String: String]) throws {
        let base = dir.file("\(devices)/iio:device\(n)")
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        for (name, content) in files { try write(content, dir, "\(devices)/iio:device\(n)/\(name)") }
    }

    static func write(_ content: String, _ dir: TemporaryDirectory, _ path: String) throws {
        try "\(content)\n".write(toFile: dir.file(path), atomically: true, encoding: .utf8)
    }

    /// An MPU-6050 at rest, as its driver shows it: ±2 g range, 16384 counts per g.
    static let mpu6050 = [
        "name": "mpu6050", "in_accel_x_raw": "120", "in_accel_y_raw": "-64", "in_accel_z_raw": "16384",
        "in_accel_scale": "0.000598", "in_anglvel_x_raw": "3",
    ]

    @Test func rawTimesScaleGivesMetresPerSecondSquared() throws {
        let dir = try TemporaryDirectory("iio")
        try Self.device(0, in: dir, Self.mpu6050)
        let sensor = IIOAccelerometer(devicePath: "/\(Self.devices)/iio:device0", root: dir.path)
        #expect(sensor.description == "IIO accelerometer /sys/bus/iio/devices/iio:device0 (mpu6050)")
        guard case .sample(let s) = sensor.readOnce(timeout: .seconds(1)) else {
            Issue.record("no sample")
            return
        }
        #expect(abs(s.x - 120 * 0.000598) < 1e-9)
        #expect(abs(s.y - -64 * 0.000598) < 1e-9)
        #expect(abs(s.z - 9.797632) < 1e-6)
    }

    @Test func perAxisScalesAndOffsetsFollowTheIIORule() throws {
        let dir = try TemporaryDirectory("iio")
        try Self.device(
            0, in: dir,
            [
                "in_accel_x_raw": "10", "in_accel_y_raw": "20", "in_accel_z_raw": "250",
                "in_accel_x_scale": "0.5", "in_accel_scale": "0.0383", "in_accel_z_offset": "6",
                "in_accel_offset": "-2",
            ])
        let reading = IIOAccelerometer(devicePath: "/\(Self.devices)/iio:device0", root: dir.path).readOnce(timeout: .seconds(1))
        guard case .sample(let s) = reading else {
            Issue.record("no sample: \(reading)")
            return
        }
        #expect(abs(s.x - (10 - 2) * 0.5) < 1e-9)
        #expect(abs(s.y - (20 - 2) * 0.0383) < 1e-9)
        #expect(abs(s.z - (250 + 6) * 0.0383) < 1e-9)
    }

    @Test func readProblemsAreFailedReadingsNamingTheFile() throws {
        let dir = try TemporaryDirectory("iio")
        var files = Self.mpu6050
        files["in_accel_scale"] = nil
        try Self.device(0, in: dir, files)
        let sensor = IIOAccelerometer(devicePath: "/\(Self.devices)/iio:device0", root: dir.path)
        guard case .failed(_, let noScale) = sensor.readOnce(timeout: .seconds(1)) else {
            Issue.record("a reading without a scale")
            return
        }
        #expect(noScale == "\(dir.path)/\(Self.devices)/iio:device0 has no in_accel_x_scale or in_accel_scale")
        try Self.write("0.000598", dir, "\(Self.devices)/iio:device0/in_accel_scale")
        try Self.write("12abc", dir, "\(Self.devices)/iio:device0/in_accel_y_raw")
        guard case .failed(_, let garbage) = sensor.readOnce(timeout: .seconds(1)) else {
            Issue.record("a reading from a garbage value")
            return
        }
        #expect(garbage == "\(dir.path)/\(Self.devices)/iio:device0/in_accel_y_raw: '12abc' is not a number")
        let gone = IIOAccelerometer(devicePath: "/\(Self.devices)/iio:device7", root: dir.path).readOnce(timeout: .seconds(1))
        guard case .failed(_, let missing) = gone else {
            Issue.record("a reading from a missing device")
            return
        }
        #expect(missing.hasSuffix("No such file or directory") || missing.contains("has no in_accel"))
    }

    @Test func findsTheFirstDeviceWithAnAccelerometerInNumericOrder() throws {
        let dir = try TemporaryDirectory("iio")
        try Self.device(0, in: dir, ["name": "ads1015", "in_voltage0_raw": "512"])  // an ADC, not an accelerometer
        var adxl = Self.mpu6050
        adxl["name"] = "adxl345"
        try Self.device(10, in: dir, adxl)
        try Self.device(2, in: dir, Self.mpu6050)
        let found = IIOAccelerometer.all(root: dir.path)
        #expect(found.map(\.devicePath) == ["/sys/bus/iio/devices/iio:device2", "/sys/bus/iio/devices/iio:device10"])
        #expect(IIOAccelerometer.all(root: dir.file("nothing-here")).isEmpty)
    }

    @Test func theSamplingThreadExistsOnlyWhileSomeoneListens() async throws {
        let dir = try TemporaryDirectory("iio")
        try Self.device(0, in: dir, Self.mpu6050)
        let sensor = IIOAccelerometer(devicePath: "/\(Self.devices)/iio:device0", root: dir.path)
        #expect(threadCount(named: "aubade-iio") == 0)
        // Listened to: the sampling thread starts with the stream, and a reading came through it. (Other
        // suites may sample an IIO device at the same moment, hence ≥ 1.)
        let listener = StreamRecorder(sensor.readings(rateHz: 50))
        #expect(await listener.wait { !$0.isEmpty })
        #expect(threadCount(named: "aubade-iio") >= 1, "threads: \(threadNames())")
        // No longer listened to: the thread ends (within a period; the wait is a watchdog).
        listener.cancel()
        #expect(await eventually { threadCount(named: "aubade-iio") == 0 }, "threads: \(threadNames())")
    }

    @Test func samplingRunsAtTheAskedRateAndKeepsGoingThroughErrors() async throws {
        let dir = try TemporaryDirectory("iio")
        try Self.device(0, in: dir, Self.mpu6050)
        let sensor = IIOAccelerometer(devicePath: "/\(Self.devices)/iio:device0", root: dir.path)
        let zFile = dir.file("\(Self.devices)/iio:device0/in_accel_z_raw")
        // Driven by what the reader delivers, not by sleeps: remove the file after 5 readings, put it back
        // after the first failure, stop at the first reading of the new value.
        var readings: [AccelerationReading] = []
        var removed = false, restored = false
        for await reading in sensor.readings(rateHz: 100) {
            readings.append(reading)
            if readings.count == 5 {
                try FileManager.default.removeItem(atPath: zFile)
                removed = true
            }
            if removed, !restored, case .failed = reading {
                try Self.write("16000", dir, "\(Self.devices)/iio:device0/in_accel_z_raw")
                restored = true
            }
            if restored, case .sample(let s) = reading, abs(s.z - 16000 * 0.000598) < 1e-9 { break }
            if readings.count > 2000 { break }
        }
        #expect(restored, "the missing file was never reported as a failed reading")
        guard case .sample(let last) = readings.last, abs(last.z - 16000 * 0.000598) < 1e-9 else {
            Issue.record("the reader did not recover")
            return
        }
        let times = readings.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // 100 Hz: never faster than the asked period on average (a loaded machine may be slower, never faster).
        let span = (times.last ?? .zero) - (times.first ?? .zero)
        #expect(span >= .milliseconds(9) * (readings.count - 1))
    }
}
