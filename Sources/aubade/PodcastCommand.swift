import ArgumentParser
import AubadeApp
import AubadeConfig
import AubadeCore
import AubadePodcasts
import AubadeStore
import Foundation

/// `aubade podcast`: the podcasts followed, their feeds read from here (Wi-Fi-only applies) and saved through the
/// running clock when one runs, else into the file.
struct PodcastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcast", abstract: "Follow podcasts: their newest episodes, read from their feeds.",
        subcommands: [PodcastList.self, PodcastAdd.self, PodcastEpisodes.self, PodcastRefresh.self, PodcastRemove.self])

    /// The feed at `url` read now; a refusal (Wi-Fi-only, the download, the XML) is one sentence, exit 1.
    static func read(_ url: StreamURL, context: CommandContext, allowLocal: Bool) throws -> PodcastFeed {
        if let refusal = try CalendarImporting.downloadRefusal(context) {
            throw CLIError.failed("The feed is not downloaded: \(refusal)")
        }
        do {
            return try FeedFetch.feed(at: url, allowLoopback: allowLocal || context.configuration.audio.allowLocalStreams)
        } catch { throw CLIError.failed(error.description) }
    }

    static func summary(_ p: Podcast) -> String {
        let newest = p.episodes.first.map { " the newest: \($0.title)" + (($0.published).map { " (\(day($0)))" } ?? "") } ?? ""
        return "\(p.episodes.count) episode(s);\(newest.isEmpty ? " none with audio" : newest)"
    }

    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }
}

struct PodcastAdd: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Follow a podcast by its feed's address.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The feed's http(s) address (RSS or Atom).") var feed: String
    @Option(help: "The name to call it by (default: the feed's title).") var name: String?
    @Flag(name: .customLong("allow-local"), help: "Allow a feed on this machine.") var allowLocal = false

    func run() throws {
        let url = try StreamURL(parsing: feed)
        if let name { _ = try Podcast.validName(name) }  // a bad name is refused before the download
        let context = try global.context()
        let read = try PodcastCommand.read(url, context: context, allowLocal: allowLocal)
        let chosen = name ?? Podcast.name(fromTitle: read.title)
        let podcast: Podcast
        do {
            podcast = try Podcast(name: chosen, feed: url, title: read.title, episodes: read.episodes, refreshedAt: Date())
        } catch { throw CLIError.badInput("\(error.message) Give it a name with --name.") }
        let result = try Edits.apply(.addPodcast(podcast), context: context)
        guard case .podcast(let saved) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(PodcastDocument(saved))
        } else {
            print("Added podcast \(saved.id ?? 0): \(saved.name), \(PodcastCommand.summary(saved)).")
        }
    }
}

struct PodcastList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the podcasts followed.")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.context().openStoreForReading { _ in "the podcasts" }
        defer { store.close() }
        let podcasts = try store.podcasts()
        if global.json {
            Output.json(["podcasts": podcasts.map { PodcastDocument($0) }])
        } else if podcasts.isEmpty {
            print("No podcasts. Follow one with: aubade podcast add https://example.org/feed.xml --name News")
        } else {
            Output.table(
                ["ID", "NAME", "EPISODES", "NEWEST", "READ"],
                podcasts.map { p in
                    [
                        p.id.map(String.init) ?? "-", p.name, String(p.episodes.count),
                        p.episodes.first?.published.map(PodcastCommand.day) ?? "-", PodcastCommand.day(p.refreshedAt),
                    ]
                })
        }
    }
}

struct PodcastEpisodes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episodes", abstract: "Show a podcast's episodes, newest first: #1 is podcast:<name>.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The podcast's name or id.") var podcast: String
    @Option(help: "How many (1–100).") var limit = 20

    func run() throws {
        guard (1...PodcastFeed.kept).contains(limit) else {
            throw CLIError.badInput("--limit \(limit) is out of range; ask for 1 to \(PodcastFeed.kept) episodes.")
        }
        let store = try global.context().openStoreForReading { _ in "the podcasts" }
        defer { store.close() }
        guard let found = try store.podcast(named: podcast) else {
            throw CLIError.badInput("No podcast is named '\(podcast)'; see 'aubade podcast list'.")
        }
        let shown = Array(found.episodes.prefix(limit))
        if global.json {
            Output.json(PodcastDocument(found, episodes: shown))
        } else if shown.isEmpty {
            print("\(found.name) has no episode with audio in its feed.")
        } else {
            Output.table(
                ["#", "PUBLISHED", "LENGTH", "TITLE"],
                shown.enumerated().map { i, e in
                    [
                        String(i + 1), e.published.map(PodcastCommand.day) ?? "-",
                        e.duration.map { DurationText.format($0) } ?? "-", e.title,
                    ]
                })
        }
    }
}

struct PodcastRefresh: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Read podcasts' feeds again now.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The podcast's name or id (default: every podcast).") var podcast: String?
    @Flag(name: .customLong("allow-local"), help: "Allow a feed on this machine.") var allowLocal = false

    func run() throws {
        let context = try global.context()
        let chosen: [Podcast] = try {
            let store = try context.openStoreForReading { _ in "the podcasts" }
            defer { store.close() }
            guard let podcast else { return try store.podcasts() }
            guard let found = try store.podcast(named: podcast) else {
                throw CLIError.badInput("No podcast is named '\(podcast)'; see 'aubade podcast list'.")
            }
            return [found]
        }()
        var failed = false
        for p in chosen {
            do {
                let read = try PodcastCommand.read(p.feed, context: context, allowLocal: allowLocal)
                let result = try Edits.apply(.refreshPodcast(name: p.name, read, at: Date()), context: context)
                guard case .podcast(let saved) = result.outcome else { throw Edits.unexpected }
                if !global.json { print("\(saved.name): \(PodcastCommand.summary(saved)).") }
            } catch {
                // One feed that fails keeps its episodes and does not stop the others.
                Aubade.printError("\(p.name): \((error as? CLIError)?.message ?? "\(error)")")
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

struct PodcastRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Stop following a podcast.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The podcast's name or id.") var podcast: String

    func run() throws {
        let result = try Edits.apply(.removePodcast(podcast), context: try global.context())
        guard case .podcastRemoved(let removed) = result.outcome else { throw Edits.unexpected }
        if global.json {
            Output.json(["deleted": removed.id ?? 0])
        } else {
            print("Removed podcast \(removed.id ?? 0) (\(removed.name)).")
        }
    }
}
