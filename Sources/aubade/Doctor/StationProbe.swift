import AubadeAudio
import AubadeCore
import Foundation

/// Each station an enabled alarm plays, tried now as the pre-alarm check tries it (R20): resolve, connect,
/// decode a second (nothing is played). Several are tried at once; each on its own thread.
struct StationProbe: Sendable {
    /// A station (or stream address) and the alarms that play it.
    struct Target: Sendable {
        var key: String
        var label: String
        var addresses: [StreamURL]
        var alarms: [String]
        var alarmIDs: [Int64]
    }

    var target: Target
    /// nil when a second of audio decoded; else why not.
    var problem: String?
    /// Set when the Wi-Fi-only policy refused streaming, so the station was not tried.
    var refused: String?

    /// The stations the enabled alarms play, one target each, in the alarms' order.
    static func targets(alarms: [Alarm], stations: [Int64: Station]) -> [Target] {
        var out: [Target] = []
        for alarm in alarms where alarm.enabled {
            let key: String, label: String, addresses: [StreamURL]
            switch alarm.sound {
            case .tone, .podcast:
                continue  // a podcast's episode is downloaded and checked by the running clock before its alarm
            case .station(let id):
                guard let station = stations[id] else { continue }
                (key, label, addresses) = ("station \(id)", station.name, station.addresses)
            case .stream(let url):
                (key, label, addresses) = (url.text, url.text, [url])
            }
            if let i = out.firstIndex(where: { $0.key == key }) {
                out[i].alarms.append(alarm.name)
                out[i].alarmIDs += alarm.id.map { [$0] } ?? []
            } else {
                out.append(
                    Target(
                        key: key, label: label, addresses: addresses, alarms: [alarm.name],
                        alarmIDs: alarm.id.map { [$0] } ?? []))
            }
        }
        return out
    }

    /// Decodes a second of each target's audio (any format the alarm plays; an HLS station at the variant the alarm
    /// would pick under `hlsBandwidthCap`).
    static func tryAll(
        _ targets: [Target], allowLoopback: Bool, streaming: NetworkPolicy.Decision, hlsBandwidthCap: Int
    ) async -> [StationProbe] {
        if case .refuse(let reason) = streaming {
            return targets.map { StationProbe(target: $0, problem: reason, refused: reason) }
        }
        return await withTaskGroup(of: (Int, StationProbe).self) { group in
            for (i, target) in targets.enumerated() {
                group.addTask {
                    let result = await PreAlarmCheck.run(
                        stations: target.addresses, allowLoopback: allowLoopback, device: nil,
                        timeout: .seconds(10), hlsBandwidthCap: hlsBandwidthCap)
                    let problem = result.stationProblem.map { $0.replacingOccurrences(of: "Pre-alarm check: ", with: "") }
                    return (i, StationProbe(target: target, problem: problem))
                }
            }
            var out: [(Int, StationProbe)] = []
            for await r in group { out.append(r) }
            return out.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    var check: DoctorCheck {
        let name = "station:\(target.label)"
        let who = target.alarms.count == 1 ? "alarm \(target.alarms[0])" : "alarms \(target.alarms.joined(separator: ", "))"
        if let refused {
            return .warning(
                name, "\(target.label) (\(who)) was not tried: \(refused) The alarm would ring the tone instead.",
                fix: "Connect over Wi-Fi, or turn Wi-Fi-only off: aubade settings set isWifi false.")
        }
        if let problem {
            return .warning(
                name, "\(target.label) (\(who)) cannot be played now: \(problem) The alarm would ring the tone instead.",
                fix: "Try it (aubade play '\(target.label)' --for 10s), give the station a second address, or pick another.")
        }
        return .ok(name, "\(target.label) (\(who)): a second of audio decoded now.")
    }
}
