import AubadeConfig
import AubadeHomeAssistant
import AubadeMQTT
import Foundation

/// The Home Assistant face the config's `[mqtt]` section (and `aubade run --mqtt`) asks for.
enum MQTTFromConfig {
    /// The settings for `config` with `override` (`--mqtt`) as the broker; nil when neither names one. A problem
    /// that makes the face unusable (an unreadable password file) is returned as a warning with nil: the clock runs
    /// without the face, never stops for it.
    static func settings(_ config: Configuration.MQTT, override: BrokerAddress?) -> (HomeAssistantSettings?, warning: String?) {
        guard let broker = override ?? BrokerAddress(parsing: config.broker) else { return (nil, nil) }
        let host = hostName()
        // Two clocks on one broker never share an id: many Pis are all called "raspberrypi", so the machine's id
        // (/etc/machine-id) is part of the default.
        let clientID = config.clientID.isEmpty ? "aubade-\(host)\(machineSuffix())" : config.clientID
        var options = MQTTOptions(host: broker.host, port: broker.port, tls: broker.tls, clientID: clientID)
        options.caFile = config.caFile.isEmpty ? nil : config.caFile
        if !config.username.isEmpty { options.username = config.username }
        if !config.passwordFile.isEmpty {
            guard let text = try? String(contentsOfFile: config.passwordFile, encoding: .utf8) else {
                return (
                    nil,
                    "The MQTT password file \(config.passwordFile) cannot be read; the clock runs without its MQTT face."
                )
            }
            options.password = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        let discovery = HomeAssistantDiscovery(
            node: HomeAssistantDiscovery.id(clientID),
            name: config.deviceName.isEmpty ? "Aubade \(host)" : config.deviceName,
            topicPrefix: config.topicPrefix.isEmpty ? "aubade/\(HomeAssistantDiscovery.id(clientID))" : config.topicPrefix,
            discoveryPrefix: config.discoveryPrefix, version: Aubade.version)
        return (HomeAssistantSettings(mqtt: options, discovery: discovery), nil)
    }

    /// "-3f9c2a": the first six characters of /etc/machine-id, or "" when there is none.
    static func machineSuffix() -> String {
        guard let text = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) else { return "" }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().prefix(6)
        return id.count == 6 && id.allSatisfy(\.isHexDigit) ? "-\(id)" : ""
    }

    /// This machine's name ("clock" when it has none).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "clock" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "clock" : name
    }
}
