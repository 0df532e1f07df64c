import AubadeHandoff
import AubadeSystem

extension SystemdNotifier {
    /// Sends `text` and what `fill` adds (e.g. "STATUS=armed for alarm 3 at …"), composed in `writer` — made at
    /// the waker's start, so nothing is allocated.
    func send(_ text: StaticString, composedIn writer: TextWriter, _ fill: (TextWriter) -> Void) {
        writer.reset()
        writer.text(text)
        fill(writer)
        send(writer.bytes)
    }
}
