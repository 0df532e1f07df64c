import Foundation
import Testing

@testable import AubadeServer

/// The `Date` header the daemon's server writes without a per-second timer.
@Suite("HTTP Date header")
struct HTTPDateTests {
    @Test func imfFixdateAsRFC9110ShowsIt() {
        #expect(HTTPDate.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(1_795_503_000) == "Tue, 24 Nov 2026 06:50:00 GMT")
        #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test func theTextIsKeptForItsSecondAndMadeAgainForTheNext() {
        let date = HTTPDate()
        #expect(date.text(for: 1_795_503_000) == "Tue, 24 Nov 2026 06:50:00 GMT")
        #expect(date.text(for: 1_795_503_000) == "Tue, 24 Nov 2026 06:50:00 GMT")
        #expect(date.text(for: 1_795_503_001) == "Tue, 24 Nov 2026 06:50:01 GMT")
    }
}
