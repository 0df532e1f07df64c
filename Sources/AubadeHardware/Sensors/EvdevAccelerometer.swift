public import AubadeCore
import AubadeSystem
import Foundation
import Glibc

/// An accelerometer that is a Linux input device (e.g. the `adxl34x` driver): /dev/input/eventN
/// reporting EV_ABS ABS_X/Y/Z, read as `struct input_event`s from the file descriptor. The scale comes from
/// `countsPerG` if given, else from EVIOCGABS's resolution, else it is calibrated at rest (`EvdevDecoder`).
/// Timestamps are switched to `CLOCK_MONOTONIC` with EVIOCSCLOCKID. See `Accelerometer` for the contract;
/// a device that cannot be opened (or disappears) gives a failed reading and is retried every second. A
/// plain file of events (tests) ends the stream at its end. `root` prefixes every path.
public struct EvdevAccelerometer: Accelerometer {
    public let devicePath: String
    public let root: String
    public let countsPerG: Double?

    public init(devicePath: String, root: String = "", countsPerG: Double? = nil) {
        self.devicePath = devicePath
        self.root = root
        self.countsPerG = countsPerG
    }

    /// Input devices that report ABS_X, ABS_Y and ABS_Z, those marked INPUT_PROP_ACCELEROMETER first
    /// (a joystick also has three axes: name the device in the config when one is attached).
    public static func all(root: String = "") -> [EvdevAccelerometer] {
        let events = SysfsFile.list(root + "/sys/class/input").filter { $0.hasPrefix("event") }
            .sorted { (Int($0.dropFirst(5)) ?? .max) < (Int($1.dropFirst(5)) ?? .max) }
        let found = events.compactMap { name -> (EvdevAccelerometer, Bool)? in
            let device = "\(root)/sys/class/input/\(name)/device"
            guard bits(of: "\(device)/capabilities/abs").isSuperset(of: [0, 1, 2]) else { return nil }
            return (
                EvdevAccelerometer(devicePath: "/dev/input/\(name)", root: root), bits(of: "\(device)/properties").contains(6)
            )
        }
        return found.filter(\.1).map(\.0) + found.filter { !$0.1 }.map(\.0)
    }

    /// The set bits of a sysfs bitmap file ("3 0 7": hex words, most significant first).
    static func bits(of path: String) -> Set<Int> {
        guard let text = try? SysfsFile.read(path, limit: 4096) else { return [] }
        var bits: Set<Int> = []
        for (wordIndex, word) in text.split(separator: " ").reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { return [] }
            for bit in 0..<64 where value & (1 << UInt64(bit)) != 0 { bits.insert(wordIndex * 64 + bit) }
        }
        return bits
    }

    public var deviceName: String? {
        let event = (devicePath as NSString).lastPathComponent
        return try? SysfsFile.read("\(root)/sys/class/input/\(event)/device/name", limit: 256)
    }

    public var description: String {
        "evdev accelerometer \(devicePath)" + (deviceName.map { " (\($0))" } ?? "")
    }

    public func readOnce(timeout: Duration) -> AccelerationReading {
        let deadline = MonotonicClock.now() + timeout
        let reader = EvdevReader(path: root + devicePath, countsPerG: countsPerG)
        defer { reader.close() }
        if let failure = reader.open() { return failure }
        if let now = reader.currentState() { return now }
        var last: AccelerationReading = .failed(
            time: MonotonicClock.now(), reason: "\(devicePath) reported no sample within \(timeout)")
        while MonotonicClock.now() < deadline {
            let batch = reader.next(waitingAtMost: min(.milliseconds(200), deadline - MonotonicClock.now()))
            if let sample = batch.readings.first(where: { if case .sample = $0 { true } else { false } }) { return sample }
            if let failure = batch.readings.last { last = failure }
            if batch.ended { break }
        }
        return last
    }

    public func readings(rateHz: Int) -> AsyncStream<AccelerationReading> {
        let (stream, continuation) = AsyncStream<AccelerationReading>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let stopFlag = StopFlag()
        continuation.onTermination = { _ in stopFlag.set() }
        let path = root + devicePath
        let countsPerG = self.countsPerG
        NamedThread.start("aubade-evdev") {
            EvdevAccelerometer.run(path: path, countsPerG: countsPerG, stopFlag: stopFlag, continuation: continuation)
        }
        return stream
    }

    private static func run(
        path: String, countsPerG: Double?, stopFlag: StopFlag,
        continuation: AsyncStream<AccelerationReading>.Continuation
    ) {
        defer { continuation.finish() }
        while !stopFlag.isSet {
            let reader = EvdevReader(path: path, countsPerG: countsPerG)
            if let failure = reader.open() {
                continuation.yield(failure)
                pause(.seconds(1), unless: stopFlag)
                continue
            }
            while !stopFlag.isSet {
                let batch = reader.next(waitingAtMost: .milliseconds(200))
                for reading in batch.readings { continuation.yield(reading) }
                if batch.ended { break }
                if batch.failed {
                    pause(.seconds(1), unless: stopFlag)
                    break
                }
            }
            let ended = reader.reachedEnd
            reader.close()
            if ended { return }
        }
    }

    private static func pause(_ duration: Duration, unless stopFlag: StopFlag) {
        let end = MonotonicClock.now() + duration
        while !stopFlag.isSet, MonotonicClock.now() < end {
            MonotonicClock.sleep(until: min(end, MonotonicClock.now() + .milliseconds(100)))
        }
    }
}
