/// Port: the clock's buttons as raw edges, for `ButtonPanel` to debounce and classify. Implementation:
/// `ButtonInput` (AubadeHardware: the configured GPIO lines watched through libgpiod).
///
/// Contract: `edges` has one consumer and yields each edge in order with the time of the clock the panel ticks on
/// (`CLOCK_MONOTONIC`); a source with no working button stays open and silent until `stop()`. `stop()` releases
/// the buttons and ends `edges`; it returns at once and is idempotent.
public protocol ButtonSource: Sendable {
    var edges: AsyncStream<ButtonEdge> { get }
    func stop()
}
