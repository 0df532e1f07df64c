public import AubadeCore

/// An accelerometer under Linux IIO (e.g. an MPU-6050 or ADXL345 with its device-tree overlay): each
/// sample reads `in_accel_{x,y,z}_raw` and converts with the IIO rule value = (raw + offset) × scale, using
/// `in_accel_{x,y,z}_scale` or the shared `in_accel_scale` (m/s² per count), and the optional offsets.
/// See `Accelerometer` for the contract. `root` prefixes every path so tests can build a fake sysfs tree.
public struct IIOAccelerometer: Accelerometer {
    public static let devicesDirectory = "/sys/bus/iio/devices"

    /// The device folder as the system names it, e.g. "/sys/bus/iio/devices/iio:device0".
    public let devicePath: String
    public let root: String

    public init(devicePath: String, root: String = "") {
        self.devicePath = devicePath
        self.root = root
    }

    /// Every IIO device with an accelerometer channel, in device-number order.
    public static func all(root: String = "") -> [IIOAccelerometer] {
        let names = SysfsFile.list(root + devicesDirectory).filter { $0.hasPrefix("iio:device") }
        return names.sorted { (Int($0.dropFirst(10)) ?? .max, $0) < (Int($1.dropFirst(10)) ?? .max, $1) }
            .map { IIOAccelerometer(devicePath: "\(devicesDirectory)/\($0)", root: root) }
            .filter { SysfsFile.exists($0.file("in_accel_x_raw")) }
    }

    /// The driver's name (the device's `name` file), if readable.
    public var driverName: String? { try? SysfsFile.read(file("name"), limit: 256) }

    public var description: String {
        "IIO accelerometer \(devicePath)" + (driverName.map { " (\($0))" } ?? "")
    }

    public func readOnce(timeout: Duration) -> AccelerationReading {
        IIOReader(directory: root + devicePath).read()
    }

    public func readings(rateHz: Int) -> AsyncStream<AccelerationReading> {
        let directory = root + devicePath
        return PeriodicSampler.start(rateHz: rateHz, name: "aubade-iio") {
            let reader = IIOReader(directory: directory)
            return { reader.read() }
        }
    }

    func file(_ name: String) -> String { "\(root)\(devicePath)/\(name)" }
}

/// Reads one IIO accelerometer, caching its scale and offsets until a read fails. Lives on one thread.
final class IIOReader {
    private struct Calibration {
        var scale: [Double]
        var offset: [Double]
    }

    private static let axes = ["x", "y", "z"]
    private let directory: String
    private var calibration: Calibration?

    init(directory: String) {
        self.directory = directory
    }

    func read() -> AccelerationReading {
        let time = MonotonicClock.now()
        do throws(SysfsFile.ReadError) {
            let c: Calibration
            if let cached = calibration {
                c = cached
            } else {
                c = try loadCalibration()
                calibration = c
            }
            var values: [Double] = []
            for (i, axis) in IIOReader.axes.enumerated() {
                let raw = try SysfsFile.number("\(directory)/in_accel_\(axis)_raw")
                values.append((raw + c.offset[i]) * c.scale[i])
            }
            return .sample(AccelerationSample(time: time, x: values[0], y: values[1], z: values[2]))
        } catch {
            calibration = nil
            return .failed(time: time, reason: error.message)
        }
    }

    private func loadCalibration() throws(SysfsFile.ReadError) -> Calibration {
        var c = Calibration(scale: [], offset: [])
        for axis in IIOReader.axes {
            c.scale.append(try firstNumber(["in_accel_\(axis)_scale", "in_accel_scale"], default: nil))
            c.offset.append(try firstNumber(["in_accel_\(axis)_offset", "in_accel_offset"], default: 0))
        }
        return c
    }

    /// The first of `names` that exists, parsed; `fallback` when none exists (an error if nil).
    private func firstNumber(_ names: [String], default fallback: Double?) throws(SysfsFile.ReadError) -> Double {
        for name in names where SysfsFile.exists("\(directory)/\(name)") {
            return try SysfsFile.number("\(directory)/\(name)")
        }
        guard let fallback else {
            throw SysfsFile.ReadError(message: "\(directory) has no \(names.joined(separator: " or "))")
        }
        return fallback
    }
}
