import Glibc

/// The evdev ioctls used here, with their request numbers computed as the kernel's `_IOR`/`_IOW` macros do
/// (Swift cannot import function-like macros). Same values on x86-64 and arm64.
enum EvdevIoctl {
    private static func ioc(_ direction: UInt, _ type: UInt8, _ number: UInt, _ size: Int) -> UInt {
        (direction << 30) | (UInt(size) << 16) | (UInt(type) << 8) | number
    }

    /// EVIOCGABS(axis): `struct input_absinfo` (value, minimum, maximum, fuzz, flat, resolution).
    static func getAbs(_ axis: UInt16) -> UInt { ioc(2, UInt8(ascii: "E"), 0x40 + UInt(axis), 6 * 4) }
    /// EVIOCSCLOCKID: which clock stamps the events.
    static let setClockID = ioc(1, UInt8(ascii: "E"), 0xa0, 4)

    /// (current value, resolution) of an axis; nil when the fd is not an input device or lacks the axis.
    static func absInfo(fd: Int32, axis: UInt16) -> (value: Int32, resolution: Int32)? {
        var info = [Int32](repeating: 0, count: 6)
        let rc = info.withUnsafeMutableBytes { buffer -> Int32 in
            guard let pointer = buffer.baseAddress else { return -1 }
            return ioctl(fd, getAbs(axis), pointer)
        }
        return rc == 0 ? (info[0], info[5]) : nil
    }

    /// Asks for `CLOCK_MONOTONIC` timestamps; false on a plain file or an old kernel.
    static func useMonotonicClock(fd: Int32) -> Bool {
        var clock = Int32(CLOCK_MONOTONIC)
        return ioctl(fd, setClockID, &clock) == 0
    }
}
