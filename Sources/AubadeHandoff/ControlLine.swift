/// The one command the second waker sends the daemon: after a person stopped or snoozed the waker's ring, the
/// same stop or snooze for that alarm on the daemon's control socket, in the JSON of the socket's protocol
/// (`ControlProtocol.Request` with a `ClockCommand`): `{"command":{"stop":{"alarm":3,"by":"button"}}}` and a
/// newline. Written into a fixed buffer: nothing is allocated.
public enum ControlLine {
    public static func write(snooze: Bool, alarm: Int64, by: WakerInput, to w: TextWriter) {
        w.reset()
        w.text(snooze ? "{\"command\":{\"snooze\":{\"alarm\":" : "{\"command\":{\"stop\":{\"alarm\":")
        w.int(alarm)
        w.text(",\"by\":")
        w.jsonString(by == .button ? "button" : "cli")
        w.text("}}}\n")
    }
}
