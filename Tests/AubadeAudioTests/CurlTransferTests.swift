import AubadeCore
import AubadeTesting
import Foundation
import Testing

@testable import AubadeAudio
@testable import AubadeHTTP

/// libcurl against a real (misbehaving) server on 127.0.0.1.
@Suite("Stream transfer (libcurl) against the fault server", .serialized)
struct CurlTransferTests {
    static let serverScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fault_server.py").path

    final class Fixture: Sendable {
        let dir: TemporaryDirectory
        let server: BackgroundProcess
        let mp3: [UInt8]
        var base: String { "http://127.0.0.1:\(server.firstLine)" }

        init() async throws {
            dir = try TemporaryDirectory("faults")
            let path = try await TestMedia.sineMP3(frequency: 440, seconds: 2, in: dir)
            mp3 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            server = try await BackgroundProcess("/usr/bin/python3", [CurlTransferTests.serverScript, path])
        }
    }

    struct Outcome: Sendable {
        var end: CurlTransfer.End
        var head: CurlTransfer.Head?
        var body: [UInt8]
    }

    /// Runs one transfer to its end — on a thread of its own, as libcurl blocks (the product runs it on its
    /// network thread too).
    static func fetch(
        _ url: String, allowLoopback: Bool = true, stall: Duration = .seconds(10),
        stopAfter: Int? = nil
    ) async throws -> Outcome {
        var options = CurlTransfer.Options()
        options.policy = AddressPolicy(allowLoopback: allowLoopback)
        options.stallTimeout = stall
        let address = try StreamURL(parsing: url)
        return await onThread("aubade-test-curl") { [options] in
            let transfer = CurlTransfer(url: address, options: options)
            var head: CurlTransfer.Head?
            var body: [UInt8] = []
            let end = transfer.run(
                shouldStop: { false },
                onHead: {
                    head = $0; return true
                },
                onBody: { bytes in
                    body += bytes
                    return stopAfter.map { body.count < $0 } ?? true
                })
            return Outcome(end: end, head: head, body: body)
        }
    }

    @Test func anMP3StreamArrivesByteForByte() async throws {
        let f = try await Fixture()
        let r = try await Self.fetch(f.base + "/mp3")
        #expect(r.end == .finished)
        #expect(r.head?.status == 200 && r.head?.contentType == "audio/mpeg")
        #expect(r.body == f.mp3)
    }

    @Test func shoutcastICY200IsAccepted() async throws {
        let f = try await Fixture()
        let r = try await Self.fetch(f.base + "/shoutcast")
        #expect(r.end == .finished && r.body == f.mp3 && r.head?.contentType == "audio/mpeg")
    }

    @Test func icyMetaintIsReported() async throws {
        let f = try await Fixture()
        let r = try await Self.fetch(f.base + "/mp3-icy?metaint=8192")
        #expect(r.head?.metaint == 8192)
        var demux = ICYDemuxer(interval: r.head?.metaint)
        var audio: [UInt8] = []
        let titles = demux.push(r.body) { audio += $0 }.compactMap { ICYMetadata.streamTitle(in: $0) }
        #expect(audio == f.mp3)
        #expect(!titles.isEmpty && titles.allSatisfy { $0 == "Test Title" })
    }

    @Test func notFoundIsAnErrorWithTheStatus() async throws {
        let f = try await Fixture()
        let r = try await Self.fetch(f.base + "/404")
        #expect(r.end == .failed("The station answered HTTP 404 (\(f.base)/404).", permanent: true))
        #expect(r.body.isEmpty)
    }

    @Test func aRefusedConnectionIsOneSentence() async throws {
        let r = try await Self.fetch("http://127.0.0.1:9/")
        #expect(r.end == .failed("The station refused the connection (http://127.0.0.1:9/).", permanent: false))
    }

    @Test func loopbackIsRefusedUnlessAllowed() async throws {
        let f = try await Fixture()
        let r = try await Self.fetch(f.base + "/mp3", allowLoopback: false)
        #expect(
            r.end
                == .failed(
                    "The stream address resolves to a loopback address, which is refused (\(f.base)/mp3).", permanent: true))
        #expect(r.head == nil && r.body.isEmpty)
    }

    @Test func redirectsAreFollowedUpToFive() async throws {
        let f = try await Fixture()
        let five = try await Self.fetch(f.base + "/redirect/5")
        #expect(five.end == .finished && five.body == f.mp3 && five.head?.url == f.base + "/redirect/0")
        let six = try await Self.fetch(f.base + "/redirect/6")
        // A redirect loop is the address's own fault: retrying cannot help (`play` retried it for ever).
        #expect(six.end == .failed("The station redirected more than 5 times (\(f.base)/redirect/6).", permanent: true))
    }

    @Test func redirectsToOtherSchemesOrLinkLocalAreRefused() async throws {
        let f = try await Fixture()
        let file = try await Self.fetch(f.base + "/to-file")
        #expect(
            file.end
                == .failed("The station redirected to an address that is not http or https (\(f.base)/to-file).", permanent: true)
        )
        let link = try await Self.fetch(f.base + "/to-linklocal")
        #expect(
            link.end
                == .failed(
                    "The stream address resolves to a link-local address, which is refused (\(f.base)/to-linklocal).",
                    permanent: true))
    }

    @Test func aStallIsDetected() async throws {
        let f = try await Fixture()
        // The server goes quiet after 4096 bytes and hangs up 8 s later. With the stall timeout at 2 s the
        // transfer ends as stalled — at 2 s at the earliest — not as "the server closed it", which is what it
        // would be were the timeout not applied (the default, 10 s, is longer than the server's silence).
        let began = ContinuousClock.now
        let r = try await Self.fetch(f.base + "/stall?after=4096&close=8", stall: .seconds(2))
        let took = ContinuousClock.now - began
        #expect(r.end == .stalled)
        #expect(r.body.count == 4096)
        #expect(took >= .seconds(2))
        figure("curl stall detected after (timeout 2 s)", took)
    }

    @Test func theConsumerCanEndTheTransfer() async throws {
        let f = try await Fixture()
        let r = try await Self.fetch(f.base + "/fast", stopAfter: 100_000)
        #expect(r.end == .stopped)
        #expect(r.body.count >= 100_000 && r.body.count < 400_000)
    }

    struct V4Case: Sendable, CustomTestStringConvertible {
        let address: [UInt8]
        let loopback: Bool
        let refusal: String?
        var testDescription: String { address.map(String.init).joined(separator: ".") }
    }

    static let v4Cases: [V4Case] = [
        V4Case(address: [127, 0, 0, 1], loopback: false, refusal: "a loopback address"),
        V4Case(address: [127, 0, 0, 1], loopback: true, refusal: nil),
        V4Case(address: [169, 254, 10, 1], loopback: true, refusal: "a link-local address"),
        V4Case(address: [239, 1, 2, 3], loopback: true, refusal: "a multicast address"),
        V4Case(address: [192, 168, 1, 20], loopback: false, refusal: nil),
        V4Case(address: [10, 0, 0, 5], loopback: false, refusal: nil),
        V4Case(address: [0, 0, 0, 0], loopback: true, refusal: "an unspecified address"),
        V4Case(address: [93, 184, 216, 34], loopback: false, refusal: nil),
    ]

    @Test(arguments: v4Cases)
    func ipv4Policy(c: V4Case) {
        let a = c.address
        #expect(AddressPolicy(allowLoopback: c.loopback).refusal(ipv4: (a[0], a[1], a[2], a[3])) == c.refusal)
    }

    @Test func ipv6Policy() {
        let p = AddressPolicy(allowLoopback: false)
        #expect(p.refusal(ipv6: Array(repeating: 0, count: 15) + [1]) == "a loopback address")
        #expect(p.refusal(ipv6: [0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]) == "a link-local address")
        #expect(p.refusal(ipv6: [0xFF, 0x02] + Array(repeating: 0, count: 13) + [1]) == "a multicast address")
        #expect(p.refusal(ipv6: Array(repeating: 0, count: 10) + [0xFF, 0xFF, 169, 254, 1, 1]) == "a link-local address")
        #expect(p.refusal(ipv6: [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]) == nil)
    }
}
