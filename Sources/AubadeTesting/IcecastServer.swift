import Foundation

/// A real Icecast2 server on 127.0.0.1 fed by ezstream with one looping MP3, for tests — and, on other mount points,
/// by ffmpeg as a source client with AAC or Ogg (`feed`). Config files are generated into a temp folder; when the
/// tests run as root, Icecast and ezstream run as `nobody` (Icecast refuses root).
/// `stop()` and `start(playing:)` let a test take the station away and bring it back on the same port,
/// with the same or another track.
public final class IcecastServer: Sendable {
    public let port: Int
    public let mount = "/radio.mp3"
    public let dir: TemporaryDirectory
    /// Icecast and ezstream while they run (`ChildProcess`: killed with their process group when dropped).
    private let processes = Locked<[ChildProcess]>([])

    public var url: String { "http://127.0.0.1:\(port)\(mount)" }

    /// How long `start` waits for the mount point to serve audio: generous, since Icecast and ezstream start
    /// slowly on a loaded machine and the wait only ends a test that is failing anyway.
    public static let startWatchdog: Duration = .seconds(90)

    /// `mp3` is played in a loop; its ID3 artist and title become the ICY title "artist - title".
    public init(mp3: String) async throws {
        for tool in ["icecast2", "ezstream"] { _ = try TestMedia.tool(tool) }
        dir = try TemporaryDirectory("icecast")
        chmod(dir.path, 0o777)
        port = IcecastServer.freePort()
        try """
        <icecast><limits><clients>20</clients><sources>8</sources><burst-size>65536</burst-size></limits>
        <authentication><source-password>src</source-password><admin-user>admin</admin-user>
        <admin-password>adm</admin-password></authentication><hostname>127.0.0.1</hostname>
        <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
        <paths><basedir>\(dir.path)</basedir><logdir>\(dir.path)</logdir>
        <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
        <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
        </icecast>
        """.write(toFile: dir.file("icecast.xml"), atomically: true, encoding: .utf8)
        try """
        <ezstream><servers><server><hostname>127.0.0.1</hostname><port>\(port)</port><password>src</password>
        </server></servers><streams><stream><mountpoint>\(mount)</mountpoint><format>MP3</format></stream>
        </streams><intakes><intake><filename>\(dir.file("list.m3u"))</filename></intake></intakes>
        <metadata><format_str>@a@ - @t@</format_str></metadata></ezstream>
        """.write(toFile: dir.file("ezstream.xml"), atomically: true, encoding: .utf8)
        chmod(dir.file("icecast.xml"), 0o644)
        chmod(dir.file("ezstream.xml"), 0o600)  // ezstream refuses a config others can read
        if getuid() == 0 { chown(dir.file("ezstream.xml"), 65534, 65534) }
        try await start(playing: mp3)
    }

    /// Starts Icecast and ezstream — playing `mp3` in a loop from now on, when given — and waits until the
    /// mount point serves audio (up to `startWatchdog`), without blocking the cooperative pool.
    public func start(playing mp3: String? = nil) async throws {
        if let mp3 {
            try "\(mp3)\n".write(toFile: dir.file("list.m3u"), atomically: true, encoding: .utf8)
            chmod(dir.file("list.m3u"), 0o644)
            chmod(mp3, 0o644)
            chmod((mp3 as NSString).deletingLastPathComponent, 0o755)
        }
        let icecast = try await ChildProcess("/usr/bin/icecast2", ["-c", dir.file("icecast.xml")], asNobody: true)
        processes.withLock { $0.append(icecast) }
        // ezstream gives up if Icecast is not listening yet: start it once Icecast answers at all.
        try await waitUntil(url, statusIn: ["200", "404"], "Icecast did not answer on port \(port)")
        let ezstream = try await ChildProcess("/usr/bin/ezstream", ["-c", dir.file("ezstream.xml")], asNobody: true)
        processes.withLock { $0.append(ezstream) }
        try await waitUntil(url, statusIn: ["200"], "Icecast did not serve \(url)")
    }

    /// Feeds `file` in a loop, in real time and as it is (`-c copy`), to the mount point `mount` with ffmpeg as the
    /// source client (`format`: ffmpeg's muxer, "adts" or "ogg"; `contentType`: what Icecast announces to listeners),
    /// and waits until the mount point serves it. Returns its address.
    @discardableResult
    public func feed(_ mount: String, file: String, format: String, contentType: String) async throws -> String {
        chmod(file, 0o644)
        let source = try await ChildProcess(
            try TestMedia.tool("ffmpeg"),
            [
                "-nostdin", "-loglevel", "error", "-re", "-stream_loop", "-1", "-i", file, "-c", "copy",
                "-content_type", contentType, "-f", format, "icecast://source:src@127.0.0.1:\(port)\(mount)",
            ])
        processes.withLock { $0.append(source) }
        let address = "http://127.0.0.1:\(port)\(mount)"
        try await waitUntil(address, statusIn: ["200"], "Icecast did not serve \(address)")
        return address
    }

    /// A port on 127.0.0.1 that nothing holds now, below the kernel's ephemeral range (where any client's
    /// connection may take a port at any moment, and Icecast could then not listen on it).
    static func freePort() -> Int {
        let range =
            (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? []
        let top = min(max((range.first ?? 32_768), 20_001), 65_535)
        while true {
            let port = Int.random(in: 20_000..<top)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { return port }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 { return port }
        }
    }

    /// Asks the mount point with curl until it answers with one of `codes`; fails at once, saying why, when
    /// Icecast or ezstream has ended.
    private func waitUntil(_ url: String, statusIn codes: Set<String>, _ failure: String) async throws {
        let answered: Bool? = try await poll(IcecastServer.startWatchdog, every: .milliseconds(200)) {
            if let ended = processes.withLock({ $0.first { $0.exitStatus != nil } }) {
                throw MediaError(
                    "\(failure): a program of the station ended (status \(ended.exitStatus ?? -1)); its log: \(errorLog)")
            }
            if let r = try? await ProcessRunner.run(
                "/usr/bin/curl",
                [
                    "-s", "-o", "/dev/null", "-r", "0-1000", "-m", "2",
                    "-w", "%{http_code}", url,
                ]),
                codes.contains(r.stdout)
            {
                return true
            }
            return nil
        }
        guard answered == nil else { return }
        throw MediaError("\(failure) within \(IcecastServer.startWatchdog); its log: \(errorLog)")
    }

    /// The end of Icecast's error log (the folder goes with the server, so a failure quotes it).
    private var errorLog: String {
        let text = (try? String(contentsOfFile: dir.file("error.log"), encoding: .utf8)) ?? "(none)"
        return String(text.suffix(1500))
    }

    /// Kills ezstream and Icecast (the station goes off the air) and waits until both are gone.
    public func stop() async {
        let running = processes.withLock { p in
            defer { p.removeAll() }
            return p.reversed()
        }
        for p in running { p.signalGroup(SIGKILL) }
        for p in running { _ = await p.waitForExit() }
    }
}
