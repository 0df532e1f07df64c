import AubadeCore

/// Turns a device's `input_event`s into acceleration readings: ABS_X/Y/Z update the axes, each SYN_REPORT
/// emits one sample stamped with the report's time. Counts become m/s² as counts × g / `countsPerG`
/// (evdev accelerometers state their resolution in counts per g). When the device does not say
/// (resolution 0, or a plain file), the scale is calibrated from the first five samples, taken as the
/// clock at rest (|a| = 1 g); until then readings are failures ("calibrating"), i.e. no movement.
/// SYN_DROPPED (the reader fell behind) is a failed reading; events up to the next SYN_REPORT are
/// discarded, as the evdev documentation asks.
struct EvdevDecoder {
    static let calibrationSamples = 5

    var axes: [Int32?] = [nil, nil, nil]
    private(set) var countsPerG: Double?
    private var calibration: [Double] = []
    private var dropping = false

    init(countsPerG: Double?) {
        self.countsPerG = countsPerG.flatMap { $0 > 0 ? $0 : nil }
    }

    mutating func feed(_ event: InputEvent) -> AccelerationReading? {
        switch (event.type, event.code) {
        case (InputEvent.typeAbs, InputEvent.absX...InputEvent.absZ):
            if !dropping { axes[Int(event.code)] = event.value }
            return nil
        case (InputEvent.typeSyn, InputEvent.synDropped):
            dropping = true
            return .failed(time: event.time, reason: "the input device dropped events (SYN_DROPPED)")
        case (InputEvent.typeSyn, InputEvent.synReport):
            if dropping {
                dropping = false
                return nil
            }
            return reading(at: event.time)
        default:
            return nil
        }
    }

    private mutating func reading(at time: Duration) -> AccelerationReading? {
        guard let x = axes[0], let y = axes[1], let z = axes[2] else { return nil }
        let raw = (Double(x), Double(y), Double(z))
        guard let countsPerG else {
            calibrate((raw.0 * raw.0 + raw.1 * raw.1 + raw.2 * raw.2).squareRoot())
            return .failed(time: time, reason: "calibrating the accelerometer's scale from rest")
        }
        let k = ShakeSettings.gravity / countsPerG
        return .sample(AccelerationSample(time: time, x: raw.0 * k, y: raw.1 * k, z: raw.2 * k))
    }

    private mutating func calibrate(_ magnitude: Double) {
        calibration.append(magnitude)
        guard calibration.count == EvdevDecoder.calibrationSamples else { return }
        let median = calibration.sorted()[EvdevDecoder.calibrationSamples / 2]
        calibration.removeAll()
        if median > 0 { countsPerG = median }
    }
}
