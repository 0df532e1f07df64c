/// Reports a measured figure (a latency, an onset error) in the test log without judging it.
///
/// Tests assert what happened and in what order; how fast it happened depends on how busy the machine is,
/// so a test only prints it, as a line `FIGURE <what>: <value>` that a reader can grep for. The figures
/// that carry targets are measured on a quiet machine by bench/daemon_bench.py and bench/radio_bench.py.
public func figure(_ what: String, _ value: String) {
    print("FIGURE \(what): \(value)")
}

/// `figure` for a duration, in milliseconds.
public func figure(_ what: String, _ value: Duration) {
    figure(what, "\(Int((value / .milliseconds(1)).rounded())) ms")
}

/// `figure` for a number of seconds, in milliseconds.
public func figure(_ what: String, seconds: Double) {
    figure(what, "\(Int((seconds * 1000).rounded())) ms")
}
