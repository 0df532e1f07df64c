import AubadeConfig
import AubadeCore
import AubadeDirectory

/// The station directory as the config describes it — off, its own servers, or the ones DNS names (looked up
/// when it is asked, never here) — for the CLI's commands and for `aubade run`, which hands it to the running
/// clock as its `StationDirectory` port.
enum StationDirectoryFromConfig {
    /// nil when `[directory] enabled = false`.
    static func make(_ configuration: Configuration, allowLocal: Bool) -> RadioBrowser? {
        guard configuration.directory.enabled else { return nil }
        return RadioBrowser(
            servers: configuration.directory.servers,
            allowLoopback: allowLocal || configuration.audio.allowLocalStreams)
    }

    /// The directory, or the sentence saying it is off.
    static func require(_ configuration: Configuration, allowLocal: Bool) throws -> RadioBrowser {
        guard let directory = make(configuration, allowLocal: allowLocal) else { throw CLIError.badInput(offSentence) }
        return directory
    }

    static let offSentence = "The station directory is off in the config ([directory] enabled = false)."
}
