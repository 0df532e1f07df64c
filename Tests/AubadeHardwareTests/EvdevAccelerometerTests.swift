import AubadeCore
import AubadeHardware
import AubadeTesting
import Foundation
import Testing

/// The evdev reader against files of `struct input_event`s (a recorded device) and fake sysfs trees.
@Suite("evdev accelerometer from files", .serialized)  // reader threads are counted
struct EvdevAccelerometerTests {
    static let g = ShakeSettings.gravity

    static func abs(_ axis: UInt16, _ value: Int32, _ ms: Int) -> InputEvent {
        InputEvent(time: .seconds(100) + .milliseconds(ms), type: InputEvent.typeAbs, code: axis, value: value)
    }

    static func syn(_ ms: Int, dropped: Bool = false) -> InputEvent {
        InputEvent(
            time: .seconds(100) + .milliseconds(ms), type: InputEvent.typeSyn,
            code: dropped ? InputEvent.synDropped : InputEvent.synReport, value: 0)
    }

    /// A report of all three axes at `ms`.
    static func report(_ x: Int32, _ y: Int32, _ z: Int32, at ms: Int) -> [InputEvent] {
        [abs(InputEvent.absX, x, ms), abs(InputEvent.absY, y, ms), abs(InputEvent.absZ, z, ms), syn(ms)]
    }

    static func file(_ events: [InputEvent], extra: [UInt8] = []) throws -> (TemporaryDirectory, String) {
        let dir = try TemporaryDirectory("evdev")
        let path = dir.file("event0")
        try Data(events.flatMap { $0.encoded() } + extra).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    static func all(_ accelerometer: EvdevAccelerometer) async -> [AccelerationReading] {
        await collect(accelerometer.readings(rateHz: 50), count: 1000)  // the stream ends at the file's end
    }

    @Test func eventsRoundTripThroughTheirBytes() {
        let events = Self.report(-3, 7, 256, at: 1234)
        let bytes = events.flatMap { $0.encoded() }
        #expect(bytes.count == events.count * InputEvent.size)
        #expect(InputEvent.size == 24)  // 64-bit layout
        #expect(bytes.withUnsafeBytes { InputEvent.decode($0) } == events)
    }

    @Test func reportsBecomeSamplesAndUnchangedAxesKeepTheirValues() async throws {
        var events = Self.report(10, -5, 256, at: 0)
        events += [Self.abs(InputEvent.absX, 20, 10), Self.syn(10)]  // only x changed
        let (dir, path) = try Self.file(events, extra: [1, 2, 3])  // a torn trailing event is ignored
        let readings = await Self.all(EvdevAccelerometer(devicePath: path, countsPerG: 256))
        _ = dir
        let k = Self.g / 256
        #expect(
            readings == [
                .sample(AccelerationSample(time: .seconds(100), x: 10 * k, y: -5 * k, z: 256 * k)),
                .sample(AccelerationSample(time: .seconds(100) + .milliseconds(10), x: 20 * k, y: -5 * k, z: 256 * k)),
            ])
    }

    @Test func withoutAResolutionTheScaleIsCalibratedAtRest() async throws {
        var events: [InputEvent] = []
        for i in 0..<5 { events += Self.report(3, -2, 255 + Int32(i % 2), at: i * 10) }
        events += Self.report(0, 0, 512, at: 50)
        let (dir, path) = try Self.file(events)
        let readings = await Self.all(EvdevAccelerometer(devicePath: path))
        _ = dir
        #expect(readings.count == 6)
        #expect(
            readings.prefix(5).allSatisfy {
                if case .failed(_, let reason) = $0 { reason == "calibrating the accelerometer's scale from rest" } else { false }
            })
        guard case .sample(let s) = readings.last else {
            Issue.record("no sample after calibration")
            return
        }
        #expect(Swift.abs(s.z / Self.g - 2) < 0.01)  // 512 counts at ~256 counts per g
    }

    @Test func droppedEventsAreAFailedReadingAndTheRestOfThatReportIsDiscarded() async throws {
        var events = Self.report(0, 0, 256, at: 0)
        events += [
            Self.abs(InputEvent.absX, 999, 5), Self.syn(5, dropped: true), Self.abs(InputEvent.absX, 500, 6),
            Self.syn(7),
        ]
        events += Self.report(1, 1, 256, at: 20)
        let (dir, path) = try Self.file(events)
        let readings = await Self.all(EvdevAccelerometer(devicePath: path, countsPerG: 256))
        _ = dir
        #expect(readings.count == 3)
        #expect(
            readings.count == 3
                && readings[1]
                    == .failed(
                        time: .seconds(100) + .milliseconds(5),
                        reason: "the input device dropped events (SYN_DROPPED)")
        )
        guard case .sample(let s) = readings.last else {
            Issue.record("no sample after the drop")
            return
        }
        #expect(Swift.abs(s.x - Self.g / 256) < 1e-9)
    }

    @Test func readOnceGivesTheFirstSample() throws {
        let (dir, path) = try Self.file(Self.report(0, 0, 256, at: 0))
        _ = dir
        let reading = EvdevAccelerometer(devicePath: path, countsPerG: 256).readOnce(timeout: .seconds(1))
        #expect(reading == .sample(AccelerationSample(time: .seconds(100), x: 0, y: 0, z: Self.g)))
    }

    @Test func aMissingDeviceIsAFailedReadingAndIsRetried() async {
        let sensor = EvdevAccelerometer(devicePath: "/nonexistent/event9")
        guard case .failed(_, let reason) = sensor.readOnce(timeout: .milliseconds(100)) else {
            Issue.record("a reading from nowhere")
            return
        }
        #expect(reason == "/nonexistent/event9 cannot be opened: No such file or directory")
        // A failure, then another after a one-second retry (never sooner, by the readings' own stamps).
        let first = await collect(sensor.readings(rateHz: 50), count: 2)
        #expect(first.count == 2)
        if first.count == 2 { #expect(first[1].time - first[0].time >= .seconds(1)) }
        #expect(await eventually { threadCount(named: "aubade-evdev") == 0 })  // the stream was released: no retrying
    }

    @Test func findsInputDevicesWithThreeAxesAccelerometersFirst() throws {
        let dir = try TemporaryDirectory("evdev-sys")
        func device(_ n: Int, abs: String, props: String, name: String) throws {
            let base = dir.file("sys/class/input/event\(n)/device")
            try FileManager.default.createDirectory(atPath: "\(base)/capabilities", withIntermediateDirectories: true)
            try "\(abs)\n".write(toFile: "\(base)/capabilities/abs", atomically: true, encoding: .utf8)
            try "\(props)\n".write(toFile: "\(base)/properties", atomically: true, encoding: .utf8)
            try "\(name)\n".write(toFile: "\(base)/name", atomically: true, encoding: .utf8)
        }
        try device(0, abs: "0", props: "0", name: "Power Button")
        try device(1, abs: "30000000007", props: "0", name: "Joystick")  // X, Y, Z and more
        try device(3, abs: "7", props: "40", name: "ADXL34x accelerometer")  // INPUT_PROP_ACCELEROMETER
        try device(2, abs: "3", props: "0", name: "Touchpad")  // only X and Y
        let found = EvdevAccelerometer.all(root: dir.path)
        #expect(found.map(\.devicePath) == ["/dev/input/event3", "/dev/input/event1"])
        #expect(found.first?.description == "evdev accelerometer /dev/input/event3 (ADXL34x accelerometer)")
    }
}
