import AubadeTesting
import Foundation
import Testing

/// `aubade run --http`: the real binary serving the page and the API, the CLI's changes going through the
/// running clock, and `aubade token`.
@Suite("HTTP API end to end", .serialized)
struct HTTPDaemonTests {
    typealias Clock = DaemonTests.Clock

    /// Starts the daemon with its web face on a free port of 127.0.0.1; returns it and the port it listens on.
    static func serve(_ c: Clock, lead: Double) async throws -> (EventProcess, HTTPClient) {
        let d = try await c.daemon(lead: lead, extra: ["--http", "127.0.0.1:0"])
        let http = try #require(await d.wait(for: "http"), "the daemon said where it listens: \(d.errorOutput)")
        let port = try #require(http["port"] as? Int)
        #expect(http["url"] as? String == "http://127.0.0.1:\(port)/")
        return (d, HTTPClient(port: port))
    }

    static func token(_ c: Clock, name: String) async throws -> String {
        let made = try await c.run(["token", "new", "--name", name, "--json"])
        #expect(made.status == 0, "\(made.stderr)")
        return try #require(try c.cli.json(made.stdout)["token"] as? String)
    }

    @Test func anAlarmMadeOverHTTPIsListedByTheCLIAndItsRingingIsStreamed() async throws {
        let c = try Clock()
        let (d, http) = try await Self.serve(c, lead: 25)
        let token = try await Self.token(c, name: "phone")
        let refused = try await http.send("POST", "/api/v1/alarms", json: #"{"name":"Web","time":"08:00"}"#)
        #expect(refused.status == 401)
        // The alarm's minute is the first that begins at least 20 s after the daemon's clock reads now (the daemon
        // starts 25 s before 08:00; a loaded machine may pass 08:00 before the request, and a minute already begun is
        // never caught up, R11).
        let status = try await http.send("GET", "/api/v1/status", token: token)
        let now = try #require(status.object["now"] as? Double, "\(status.text)")
        let minute = (Int(now) + 20 + 59) / 60 * 60
        let time = String(format: "%02d:%02d", minute / 3600 % 24, minute / 60 % 60)
        let made = try await http.send(
            "POST", "/api/v1/alarms", token: token,
            json: #"{"name":"Web","time":"\#(time)","days":"daily","source":"tone","durationSeconds":60}"#)
        #expect(made.status == 201, "\(made.text)")
        let list = try await c.run(["alarm", "list"])
        #expect(list.status == 0 && list.stdout.contains("Web") && list.stdout.contains(time), "\(list.stdout)")
        let json = try await c.run(["alarm", "list", "--json"])
        let listed = try await http.send("GET", "/api/v1/alarms")
        // Each alarm's next ring moves on when it rings (here about 25 s after the start, which a loaded machine may
        // pass between the two requests): the same bytes once it is set aside, and both carry one.
        func withoutNextRing(_ text: String) -> String {
            text.replacingOccurrences(of: #""nextRing":[0-9.]+,"#, with: "", options: .regularExpression)
        }
        #expect(json.stdout.contains(#""nextRing":"#) && listed.text.contains(#""nextRing":"#))
        #expect(withoutNextRing(json.stdout) == withoutNextRing(listed.text), "the CLI and the API print the same bytes")
        // The stream gives the state at once, then the ringing alarm when it comes due (about 25 s from start).
        let stream = await http.events(for: 150) { $0.contains(#""ringing":{"#) }
        #expect(stream.hasPrefix("HTTP/1.1 200 OK"), "\(stream.prefix(200))")
        #expect(stream.contains("content-type: text/event-stream") || stream.contains("Content-Type: text/event-stream"))
        #expect(stream.contains("event: state\ndata: {"))
        #expect(stream.contains(#""ringing":{"alarms":[{"id":1,"name":"Web"}]"#), "\(stream.suffix(600))")
        _ = try #require(await d.wait(for: "ringing"))
        let stop = try await http.send("POST", "/api/v1/alarm/stop", token: token, json: "{}")
        #expect(stop.status == 200 && stop.object["message"] as? String == "Stopped.", "\(stop.text)")
        _ = try #require(await d.wait(for: "dismissed"))
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func changesFromTheCLIGoThroughTheRunningClockWithTheSameOutput() async throws {
        let c = try Clock()
        let offline = try Clock()
        let (d, _) = try await Self.serve(c, lead: 3600)
        let added = try await c.run(["alarm", "add", "--name", "Work", "--time", "07:00", "--days", "mon-fri", "--json"])
        let addedOffline = try await offline.run([
            "alarm", "add", "--name", "Work", "--time", "07:00", "--days", "mon-fri", "--json",
        ])
        #expect(added.status == 0 && added.stdout == addedOffline.stdout, "\(added.stdout) vs \(addedOffline.stdout)")
        _ = try #require(
            await d.wait(for: "edit") { $0["change"] as? String == "alarm 1 saved" }, "the edit went through the clock")
        let text = try await c.run(["alarm", "edit", "1", "--time", "06:30"])
        #expect(text.stdout == "Changed alarm 1: Work at 06:30, mon-fri, not on days off.\n", "\(text.stdout)")
        for args in [
            ["alarm", "add", "--name", "Bad", "--time", "25:00"], ["alarm", "edit", "9", "--volume", "50"],
            ["settings", "set", "defaultVolume", "5"], ["station", "rm", "Nowhere"],
        ] {
            let viaClock = try await c.run(args)
            let direct = try await offline.run(args)
            #expect(viaClock.status == 2 && viaClock.status == direct.status, "\(args)")
            #expect(
                viaClock.errorSentence == direct.errorSentence && viaClock.errorSentence != nil, "\(args): \(viaClock.stderr)")
        }
        #expect(try await c.run(["station", "add", "--name", "FIP", "--url", "http://radio.example/fip"]).status == 0)
        #expect(
            try await c.run(["program", "add", "--name", "Jazz", "--begin", "22:00", "--end", "23:00", "--station", "FIP"]).status
                == 0)
        #expect(try await c.run(["program", "reserve", "1"]).stdout.contains("Reserved programme 1 (Jazz)"))
        #expect(try await c.run(["settings", "set", "defaultVolume", "70"]).stdout == "defaultVolume = 70\n")
        #expect(try await c.run(["alarm", "skip-next", "1"]).status == 0)
        #expect(try await c.run(["alarm", "disable", "1"]).stdout == "Alarm 1 (Work) is disabled.\n")
        #expect(try await c.run(["program", "rm", "1"]).status == 0)
        #expect(try await c.run(["station", "rm", "FIP"]).stdout == "Deleted station 1 (FIP).\n")
        #expect(try await c.run(["alarm", "rm", "1"]).stdout == "Deleted alarm 1 (Work).\n")
        let changes = d.events.filter { $0["event"] as? String == "edit" }.compactMap { $0["change"] as? String }
        #expect(
            changes == [
                "alarm 1 saved", "alarm 1 saved", "station 1 saved", "programme 1 saved", "programme 1 saved",
                "settings saved", "alarm 1 saved", "alarm 1 saved", "programme 1 removed", "station 1 removed",
                "alarm 1 removed",
            ], "\(changes)")
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
    }

    @Test func aTakenPortIsAWarningAndTheClockRunsOn() async throws {
        let first = try Clock()
        let second = try Clock()
        let (a, http) = try await Self.serve(first, lead: 3600)
        let b = try await second.daemon(lead: 3600, extra: ["--http", "127.0.0.1:\(http.port)"])
        _ = try #require(await b.wait(for: "ready"))
        // The HTTP service's failure to listen comes when it does, independent of the device's READY: wait for it.
        let refused = "The web page and API cannot listen on 127.0.0.1:\(http.port) ("
        let warned = await b.wait(for: "warning") { ($0["message"] as? String)?.hasPrefix(refused) == true }
        #expect(warned != nil, "\(b.errorOutput)")
        let status = try await second.run(["status", "--json"])
        let warnings = try #require(try second.cli.json(status.stdout)["warnings"] as? [String])
        #expect(
            warnings.contains { $0.hasPrefix(refused) }, "\(warnings)")
        #expect(try await second.run(["alarm", "add", "--name", "Still", "--time", "07:00"]).status == 0)
        for d in [a, b] {
            d.signal(SIGTERM)
            #expect(await d.waitForExit() == 0)
        }
    }

    /// SIGTERM with more clients than either server takes at once — 70 silent connections on the HTTP port and
    /// 70 on the control socket, every third having sent half a request — ends the daemon by graceful shutdown
    /// with status 0: connections accepted but not yet served are taken and closed, never dropped in a way that
    /// traps the process (SIGILL, "Deinited NIOAsyncWriter without calling finish()"). Once at once, while the
    /// servers are still accepting them; once after the control socket has shown it took every one (its bound
    /// closed the oldest six to answer a `status`) and the daemon holds well over a hundred of them open.
    @Test(arguments: [false, true])
    func sigtermWithSeventySilentConnectionsQueuedOnEachServerExitsZero(afterTheyAreTaken: Bool) async throws {
        let c = try Clock()
        let (d, http) = try await Self.serve(c, lead: 3600)
        let ready = try #require(await d.wait(for: "ready"), "\(d.errorOutput)")
        let socket = try #require(ready["socket"] as? String)
        let before = Self.openDescriptors(d.pid)
        var clients: [RawSocket] = []
        for i in 0..<70 {
            let web = try RawSocket(port: http.port)
            let local = try RawSocket(path: socket)
            if i % 3 == 0 {
                web.send("GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1:\(http.port)\r\n")
                local.send(#"{"command":{"stat"#)
            }
            clients += [web, local]
        }
        if afterTheyAreTaken {
            let status = try await c.run(["status", "--json"])
            #expect(status.status == 0, "\(status.stderr)")
            let taken = await onThread { () -> Bool in
                let giveUp = Date().addingTimeInterval(RawSocket.watchdog)
                while Date() < giveUp {
                    if Self.openDescriptors(d.pid) >= before + 120 { return true }
                    usleep(50_000)
                }
                return false
            }
            #expect(taken, "the daemon holds \(Self.openDescriptors(d.pid) - before) more descriptors, not the ~128 connections")
        }
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0, "\(d.errorOutput.suffix(2000))")
        #expect(d.position(of: "exiting") != nil)
        _ = clients
    }

    /// How many descriptors process `pid` has open.
    static func openDescriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// The report's requests against the real binary (R39): while an alarm rings, no other spelling of a path
    /// silences it or deletes it, with or without a token; a chunked body over 64 KiB is 413 like a sized one; and a
    /// SIGTERM with connections open (one idle, one streaming events) ends the daemon with status 0 and nothing from
    /// the HTTP server on its standard error.
    @Test func theRealDaemonServesNoOtherSpellingOfAPathAndRefusesAChunkedBodyOver64KiB() async throws {
        let c = try Clock()
        let id = try await c.addAlarm(["--source", "tone"])
        let (d, http) = try await Self.serve(c, lead: 15)
        let token = try await Self.token(c, name: "phone")
        _ = try #require(await d.wait(for: "ringing"), "\(d.errorOutput)")
        let stop = "POST //api/v1/alarm/stop", delete = "DELETE //api/v1/alarms/\(id)"
        for request in [stop, delete, "POST ///api/v1/alarm/stop", "POST /api//v1//alarm/stop", "POST /api/v1/alarm/stop/"] {
            for bearer in [nil, token] {
                let head = try #require(await Self.raw(http.port, request, token: bearer), "\(request): no answer")
                #expect(head.hasPrefix("HTTP/1.1 404 "), "\(request) (token: \(bearer != nil)): \(head.prefix(200))")
            }
        }
        #expect(d.position(of: "dismissed") == nil, "a spelling silenced the alarm")
        let list = try await c.run(["alarm", "list", "--json"])
        #expect(list.stdout.contains(#""id":\#(id)"#), "a spelling deleted the alarm: \(list.stdout)")
        let chunked = try #require(
            await Self.raw(http.port, "POST /api/v1/alarms", token: token, chunked: 9 * 8192), "no answer to the chunked body")
        #expect(chunked.hasPrefix("HTTP/1.1 413 "), "\(chunked.prefix(300))")
        let stopped = try await http.send("POST", "/api/v1/alarm/stop", token: token, json: "{}")
        #expect(stopped.status == 200, "\(stopped.text)")
        // Connections open at the SIGTERM: one idle after an answer (kept alive), one event stream.
        let idle = try RawSocket(port: http.port)
        idle.send("GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1:\(http.port)\r\n\r\n")
        #expect(await onThread { idle.readResponse() }?.hasPrefix("HTTP/1.1 200 ") == true)
        let stream = try RawSocket(port: http.port)
        stream.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(http.port)\r\nAccept: text/event-stream\r\n\r\n")
        #expect(await onThread { stream.readResponse() }?.hasPrefix("HTTP/1.1 200 ") == true)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0, "\(d.errorOutput.suffix(2000))")
        let server = d.errorOutput.split(separator: "\n").filter { !$0.hasPrefix("{") }
        #expect(server.isEmpty, "the daemon's standard error beyond its event lines: \(server)")
        _ = (idle, stream)
    }

    /// A SIGTERM with the web face on ends the daemon quietly, whatever the HTTP server was doing: six times over —
    /// after an answered request, with an event stream open, with nothing asked — the daemon exits 0 and writes
    /// nothing but its event lines to standard error. swift-nio runs in its strict mode (`SWIFTNIO_STRICT`), where
    /// a use of an event loop after it has shut down (the server's own shutdown task, reaching for the loop late)
    /// is a crash, not a printed error.
    @Test func sigtermWithTheWebFaceOnEndsTheDaemonWithNothingFromTheServerOnStandardError() async throws {
        for round in 0..<6 {
            let c = try Clock()
            let d = try await c.daemon(lead: 3600, extra: ["--http", "127.0.0.1:0"], environment: ["SWIFTNIO_STRICT": "1"])
            let http = try #require(await d.wait(for: "http"), "\(d.errorOutput)")
            let port = try #require(http["port"] as? Int)
            _ = try #require(await d.wait(for: "ready"))
            var open: RawSocket?
            switch round % 3 {
            case 0:
                let status = try await HTTPClient(port: port).send("GET", "/api/v1/status")
                #expect(status.status == 200)
            case 1:
                let stream = try RawSocket(port: port)
                stream.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                #expect(await onThread { stream.readResponse() }?.hasPrefix("HTTP/1.1 200 ") == true)
                open = stream
            default:
                break
            }
            d.signal(SIGTERM)
            #expect(await d.waitForExit() == 0, "round \(round): \(d.errorOutput.suffix(3000))")
            let other = d.errorOutput.split(separator: "\n").filter { !$0.hasPrefix("{") }
            #expect(other.isEmpty, "round \(round): standard error beyond the event lines: \(other)")
            _ = open
        }
    }

    /// Sends `request` ("METHOD path", the path exactly as written) on a connection of its own, with a JSON body of
    /// `{}` or, with `chunked`, that many bytes in chunks of 8 KiB; returns the answer's head.
    static func raw(_ port: Int, _ request: String, token: String?, chunked: Int? = nil) async -> String? {
        await onThread { () -> String? in
            guard let socket = try? RawSocket(port: port) else { return nil }
            var head = "\(request) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            if let token { head += "Authorization: Bearer \(token)\r\n" }
            guard let chunked else {
                socket.send(head + "Content-Length: 2\r\n\r\n{}")
                return socket.readResponse()
            }
            socket.send(head + "Transfer-Encoding: chunked\r\n\r\n")
            var sent = 0
            while sent < chunked, socket.send("2000\r\n" + String(repeating: " ", count: 8192) + "\r\n") { sent += 8192 }
            socket.send("0\r\n\r\n")
            return socket.readResponse()
        }
    }

    @Test func offTurnsTheServerOffAndABadAddressIsRefused() async throws {
        let c = try Clock()
        let d = try await c.daemon(lead: 3600, extra: ["--http", "off"])
        _ = try #require(await d.wait(for: "ready"))
        #expect(d.position(of: "http") == nil)
        d.signal(SIGTERM)
        #expect(await d.waitForExit() == 0)
        let bad = try await c.run(["run", "--http", "localhost"])
        #expect(bad.status == 2)
        #expect(
            bad.errorSentence
                == "--http 'localhost' is not an address; write it like 127.0.0.1:8080, 0.0.0.0:8080, [::1]:8080, or off.")
    }
}

/// `aubade token new|list|revoke`.
@Suite("Token CLI")
struct TokenCLITests {
    @Test func aTokenIsPrintedOnceStoredAsItsHashListedAndRevoked() async throws {
        let cli = try CLIHarness()
        let made = try await cli.run(["token", "new", "--name", "phone"])
        #expect(made.status == 0)
        let lines = made.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("Token 1 (phone): aubade_"))
        let secret = String(lines[0].split(separator: " ").last ?? "")
        #expect(!(try cli.dump().joined().contains(secret)), "only the hash is stored")
        let json = try await cli.run(["token", "new", "--json"])
        let object = try cli.json(json.stdout)
        #expect(object["name"] as? String == "token 2" && (object["token"] as? String)?.hasPrefix("aubade_") == true)
        let list = try await cli.run(["token", "list"])
        #expect(list.stdout.contains("phone") && list.stdout.contains("token 2") && list.stdout.contains("never"))
        #expect(!list.stdout.contains("aubade_"))
        let listed = try cli.json(try await cli.run(["token", "list", "--json"]).stdout)["tokens"] as? [[String: Any]]
        #expect(listed?.map { $0["name"] as? String } == ["phone", "token 2"] && listed?.first?["token"] == nil)
        #expect(try await cli.run(["token", "revoke", "phone"]).stdout == "Revoked token 1 (phone).\n")
        let revoked = try cli.json(try await cli.run(["token", "revoke", "2", "--json"]).stdout)
        #expect(revoked["revoked"] as? Int == 2)
        #expect(try await cli.run(["token", "list"]).stdout == "No tokens. Make one with: aubade token new --name phone\n")
    }

    @Test func badTokenInputIsOneSentenceAndExit2() async throws {
        let cli = try CLIHarness()
        let empty = try await cli.run(["token", "new", "--name", " "])
        #expect(empty.status == 2 && empty.errorSentence == "Token name is empty; give it a few words.")
        #expect(try await cli.run(["token", "new", "--name", "phone"]).status == 0)
        let before = try cli.dump()
        let twice = try await cli.run(["token", "new", "--name", "Phone"])
        #expect(
            twice.status == 2
                && twice.errorSentence == "A token named 'Phone' already exists; pick another name or revoke that one first.")
        let unknown = try await cli.run(["token", "revoke", "tablet"])
        #expect(unknown.status == 2 && unknown.errorSentence == "No token is named 'tablet'; see 'aubade token list'.")
        #expect(try cli.dump() == before)
    }
}
