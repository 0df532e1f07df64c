import AubadeTesting
import Foundation
import Testing

@testable import AubadeFaceLink

/// The link against the real clock: the built `aubade run` on a temporary database, its API on a free port of
/// 127.0.0.1 (started by `EventProcess`, so it dies with the test process), its sound card alsa-lib's `file`
/// plugin. Skipped when the binary is not built beside the tests (`swift build --product aubade`).
@Suite("The face's link against the daemon", .serialized)
struct DaemonLinkTests {
    static let binary = ProcessRunner.builtExecutable("aubade")

    @Test(.enabled(if: binary != nil, "the aubade binary is not built"))
    func theLiveStateArrivesAndACommandPairsAndIsDone() async throws {
        let folder = try TemporaryDirectory("facelink-daemon")
        let config = folder.file("aubade.toml")
        try """
        [audio]
        device = "file:'\(folder.file("card.raw"))',raw"
        [clock]
        time_zone = "UTC"
        [buttons]
        snooze = ""
        stop = ""
        play_pause = ""
        sleep = ""
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try await EventProcess(
            try #require(Self.binary),
            ["run", "--json", "--db", folder.file("aubade.sqlite"), "--config", config, "--http", "127.0.0.1:0"],
            environment: ["AUBADE_CONFIG": "", "AUBADE_RUNTIME_DIR": folder.file("run")])
        let http = try #require(await daemon.wait(for: "http"), "the daemon said where it listens: \(daemon.errorOutput)")
        let port = try #require(http["port"] as? Int)

        // The clock's stream comes in chunked transfer-coding (Hummingbird), and without a token to its own machine.
        let core = LinkCore(host: "127.0.0.1", port: port, tokenPath: nil, timing: FaceLinkTiming())
        let head = await onThread("test-stream-head") { () -> ResponseHead? in
            let patience = Patience.within(.seconds(120))
            guard let socket = try? LinkSocket.connect(host: "127.0.0.1", port: port, patience: patience, sockets: core.sockets),
                (try? socket.write(core.request("GET", "/events", nil, token: nil, stream: true), patience)) != nil
            else { return nil }
            var reader = HTTPResponseReader(SocketSource(socket: socket, patience: patience))
            return try? reader.readHead()
        }
        #expect(head?.status == 200 && head?.value("transfer-encoding") == "chunked", "\(String(describing: head))")

        let tokenPath = folder.file("face/token")
        let link = FaceLink(port: port, tokenPath: tokenPath)
        defer { link.stop() }
        let states = Gathered<String>()
        let links = Gathered<Bool>()
        link.startLive(onState: { states.add(String(decoding: $0, as: UTF8.self)) }, onLink: { links.add($0) })
        let first = await onThread("test-wait") { states.wait { !$0.isEmpty } }.first
        let state = try #require(first, "a live state came: \(daemon.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(state.utf8)) as? [String: Any])
        #expect(object["now"] is Double, "\(state.prefix(300))")
        #expect(links.all.first == true)

        let reply = await ask(link, "POST", "/display/wake")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        let token = try #require(TokenFile.read(tokenPath), "the face paired and kept its token")
        #expect(link.core.token == token)
        let volume = await ask(link, "POST", "/player/volume", #"{"volume":101}"#)
        #expect((400..<500).contains(volume.status), "a refusal is an answer: \(volume.status)")
        #expect(String(decoding: volume.body, as: UTF8.self).contains("out of range"))

        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
        #expect(await onThread("test-wait") { links.wait { $0.last == false } }.last == false, "the link saw the clock go")
    }
}
