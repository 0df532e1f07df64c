import Foundation

/// A real Icecast2 server on 127.0.0.1 fed by ezstream with one looping MP3, for tests. Config files are
/// generated into a temp folder; when the tests run as root, both run as `nobody` (Icecast refuses root).
/// `stop()` and `start()` let a test take the station away and bring it back on the same port.
public final class IcecastServer: @unchecked Sendable {
    // @unchecked: `processes` is only touched by the test that owns the server, one call at a time.
    public let port: Int
    public let mount = "/radio.mp3"
    public let dir: TemporaryDirectory
    private var processes: [Process] = []

    public var url: String { "http://127.0.0.1:\(port)\(mount)" }

    /// `mp3` is played in a loop; its ID3 artist and title become the ICY title "artist - title".
    public init(mp3: String) throws {
        for tool in ["icecast2", "ezstream"] { _ = try TestMedia.tool(tool) }
        dir = try TemporaryDirectory("icecast")
        chmod(dir.path, 0o777)
        port = Int.random(in: 20_000..<40_000)
        try """
            <icecast><limits><clients>20</clients><sources>4</sources><burst-size>65536</burst-size></limits>
            <authentication><source-password>src</source-password><admin-user>admin</admin-user>
            <admin-password>adm</admin-password></authentication><hostname>127.0.0.1</hostname>
            <listen-socket><port>\(port)</port><bind-address>127.0.0.1</bind-address></listen-socket>
            <paths><basedir>\(dir.path)</basedir><logdir>\(dir.path)</logdir>
            <webroot>/usr/share/icecast2/web</webroot><adminroot>/usr/share/icecast2/admin</adminroot></paths>
            <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
            </icecast>
            """.write(toFile: dir.file("icecast.xml"), atomically: true, encoding: .utf8)
        try "\(mp3)\n".write(toFile: dir.file("list.m3u"), atomically: true, encoding: .utf8)
        try """
            <ezstream><servers><server><hostname>127.0.0.1</hostname><port>\(port)</port><password>src</password>
            </server></servers><streams><stream><mountpoint>\(mount)</mountpoint><format>MP3</format></stream>
            </streams><intakes><intake><filename>\(dir.file("list.m3u"))</filename></intake></intakes>
            <metadata><format_str>@a@ - @t@</format_str></metadata></ezstream>
            """.write(toFile: dir.file("ezstream.xml"), atomically: true, encoding: .utf8)
        for f in ["icecast.xml", "list.m3u"] { chmod(dir.file(f), 0o644) }
        chmod(dir.file("ezstream.xml"), 0o600)  // ezstream refuses a config others can read
        chmod(mp3, 0o644)
        chmod((mp3 as NSString).deletingLastPathComponent, 0o755)
        if getuid() == 0 { chown(dir.file("ezstream.xml"), 65534, 65534) }
        try start()
    }

    /// Starts Icecast and ezstream and waits until the mount point serves audio (up to 10 s).
    public func start() throws {
        processes.append(try launch("/usr/bin/icecast2", ["-c", dir.file("icecast.xml")]))
        Thread.sleep(forTimeInterval: 0.5)
        processes.append(try launch("/usr/bin/ezstream", ["-c", dir.file("ezstream.xml")]))
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            if let r = try? ProcessRunner.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-r", "0-1000", "-m", "1",
                                                                "-w", "%{http_code}", url]),
               r.stdout == "200" { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw MediaError("Icecast did not serve \(url) within 10 s; see \(dir.path)/error.log.")
    }

    /// Kills ezstream and Icecast (the station goes off the air).
    public func stop() {
        for p in processes.reversed() where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        processes.removeAll()
    }

    private func launch(_ tool: String, _ args: [String]) throws -> Process {
        let p = Process()
        if getuid() == 0 {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", tool] + args
        } else {
            p.executableURL = URL(fileURLWithPath: tool)
            p.arguments = args
        }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    deinit {
        stop()
    }
}
