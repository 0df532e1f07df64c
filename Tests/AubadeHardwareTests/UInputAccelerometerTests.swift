import AubadeCore
import AubadeHardware
import AubadeTesting
import Foundation
import Glibc
import Synchronization
import Testing

/// The evdev reader against a real kernel input device made with uinput. Skipped, with the reason shown by
/// the test runner, where the kernel has no uinput (this build machine: no /dev/uinput, no input subsystem
/// devices) — the QEMU harness of issue 7 runs it.
@Suite(
    "evdev accelerometer on a real uinput device",
    .enabled(
        if: UInputDevice.isAvailable,
        "no writable /dev/uinput on this machine (kernel without CONFIG_INPUT_UINPUT, or no permission)"))
struct UInputAccelerometerTests {
    @Test func theReaderDecodesWhatTheKernelDelivers() async throws {
        let device = try await onThread { try UInputDevice(resolution: 256) }  // waits for udev's node
        defer { device.destroy() }
        let sensor = EvdevAccelerometer(devicePath: device.eventPath)
        let k = ShakeSettings.gravity / 256
        // The current state comes from EVIOCGABS, with the scale from the declared resolution.
        #expect(sensor.readOnce(timeout: .seconds(1)).sampleValues.map { $0.z } == 0)
        let stream = sensor.readings(rateHz: 50)
        let sent = MonotonicClock.now()
        let sender = Task {
            try? await Task.sleep(for: .milliseconds(300))  // let the reader open the device
            for i in 0..<5 { device.send(x: Int32(i), y: -3, z: 256); try? await Task.sleep(for: .milliseconds(10)) }
        }
        let readings = await collect(stream, count: 5)
        await sender.value
        #expect(readings.compactMap(\.sampleValues) == (0..<5).map { (Double($0) * k, -3 * k, 256 * k) }.map(Triple.init))
        // CLOCK_MONOTONIC stamps: each between the moment the events were sent and the moment they were read.
        let times = readings.map(\.time)
        let now = MonotonicClock.now()
        #expect(times.allSatisfy { sent <= $0 && $0 <= now })
    }
}

struct Triple: Equatable {
    var x, y, z: Double
    init(_ t: (Double, Double, Double)) { (x, y, z) = t }
}

extension AccelerationReading {
    var sampleValues: Triple? {
        if case .sample(let s) = self { return Triple((s.x, s.y, s.z)) }
        return nil
    }
}

/// A virtual accelerometer created through /dev/uinput (ABS_X/Y/Z, INPUT_PROP_ACCELEROMETER).
final class UInputDevice: Sendable {
    static var isAvailable: Bool { access("/dev/uinput", W_OK) == 0 }

    private static func ioc(_ dir: UInt, _ nr: UInt, _ size: Int) -> UInt {
        (dir << 30) | (UInt(size) << 16) | (UInt(UInt8(ascii: "U")) << 8) | nr
    }

    static let devCreate = ioc(0, 1, 0)
    static let devDestroy = ioc(0, 2, 0)
    static let devSetup = ioc(1, 3, 92)  // struct uinput_setup
    static let absSetup = ioc(1, 4, 28)  // struct uinput_abs_setup
    static let setEvBit = ioc(1, 100, 4)
    static let setAbsBit = ioc(1, 103, 4)
    static let setPropBit = ioc(1, 110, 4)
    static func getSysname(_ length: Int) -> UInt { ioc(2, 44, length) }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    let eventPath: String
    private let destroyed = Atomic<Bool>(false)

    init(resolution: Int32) throws {
        fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "open /dev/uinput: \(String(cString: strerror(errno)))") }
        func check(_ rc: Int32, _ what: String) throws {
            if rc < 0 { throw Failure(description: "\(what): \(String(cString: strerror(errno)))") }
        }
        try check(ioctl(fd, Self.setEvBit, Int32(InputEvent.typeAbs)), "UI_SET_EVBIT")
        for axis in 0..<3 { try check(ioctl(fd, Self.setAbsBit, Int32(axis)), "UI_SET_ABSBIT") }
        try check(ioctl(fd, Self.setPropBit, 6), "UI_SET_PROPBIT")  // INPUT_PROP_ACCELEROMETER
        for axis in 0..<3 {
            var setup = [UInt8](repeating: 0, count: 28)
            setup.withUnsafeMutableBytes { p in
                p.storeBytes(of: UInt16(axis), toByteOffset: 0, as: UInt16.self)
                p.storeBytes(of: Int32(-1024), toByteOffset: 8, as: Int32.self)  // minimum
                p.storeBytes(of: Int32(1024), toByteOffset: 12, as: Int32.self)  // maximum
                p.storeBytes(of: resolution, toByteOffset: 24, as: Int32.self)  // resolution
            }
            try check(Self.ioctlBytes(fd, Self.absSetup, &setup), "UI_ABS_SETUP")
        }
        var setup = [UInt8](repeating: 0, count: 92)
        setup.withUnsafeMutableBytes { p in
            p.storeBytes(of: UInt16(0x06), toByteOffset: 0, as: UInt16.self)  // BUS_VIRTUAL
            p.storeBytes(of: UInt16(0x1d6b), toByteOffset: 2, as: UInt16.self)
            p.storeBytes(of: UInt16(0x0101), toByteOffset: 4, as: UInt16.self)
            for (i, byte) in "aubade-test-accel".utf8.enumerated() { p[8 + i] = byte }
        }
        try check(Self.ioctlBytes(fd, Self.devSetup, &setup), "UI_DEV_SETUP")
        try check(ioctl(fd, Self.devCreate), "UI_DEV_CREATE")
        var name = [UInt8](repeating: 0, count: 64)
        try check(Self.ioctlBytes(fd, Self.getSysname(64), &name), "UI_GET_SYSNAME")
        let sysname = String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
        let sys = "/sys/devices/virtual/input/\(sysname)"
        var event: String?
        for _ in 0..<50 {
            event = ((try? FileManager.default.contentsOfDirectory(atPath: sys)) ?? []).first { $0.hasPrefix("event") }
            if let event, access("/dev/input/\(event)", R_OK) == 0 { break }
            usleep(20_000)
        }
        guard let event else { throw Failure(description: "no event node appeared under \(sys)") }
        eventPath = "/dev/input/\(event)"
    }

    private static func ioctlBytes(_ fd: Int32, _ request: UInt, _ bytes: inout [UInt8]) -> Int32 {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return -1 }
            return ioctl(fd, request, base)
        }
    }

    func send(x: Int32, y: Int32, z: Int32) {
        let events =
            [(InputEvent.absX, x), (InputEvent.absY, y), (InputEvent.absZ, z)].map {
                InputEvent(time: .zero, type: InputEvent.typeAbs, code: $0.0, value: $0.1)
            } + [InputEvent(time: .zero, type: InputEvent.typeSyn, code: InputEvent.synReport, value: 0)]
        let bytes = events.flatMap { $0.encoded() }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    func destroy() {
        guard !destroyed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = ioctl(fd, Self.devDestroy)
        close(fd)
    }

    deinit { destroy() }
}
