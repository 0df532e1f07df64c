import AubadeCore
import Foundation

/// What the clock's parts read from the store besides the alarms: stations, settings, programmes, days off,
/// calendar sources. Part of the clock's state (`ClockContext`): replaced on reload; the parts read it.
struct Catalogue: Sendable {
    var settings: AppSettings
    var stations: [Int64: Station]
    var programmes: [Programme]
    var daysOff: [DayOff]
    var calendarSources: [CalendarSource]
    var podcasts: [Podcast]

    init(_ loaded: StoredClock) {
        podcasts = loaded.podcasts
        settings = loaded.settings
        stations = Station.byID(loaded.stations)
        programmes = loaded.programmes
        daysOff = loaded.daysOff
        calendarSources = loaded.calendarSources
    }

    /// A sound the user named (tone, a station's name, `podcast:<name>`, a URL); the first saved station when nil.
    func source(_ text: String?, purpose: String) throws(ValidationError) -> (SoundSource, String) {
        if let text, !text.isEmpty {
            do {
                let source = try SoundSource(
                    userText: text, stationNamed: { name in stations.values.first { $0.name == name } },
                    podcastNamed: podcast(named:))
                return (source, label(source) ?? text)
            } catch let error as ValidationError {
                throw error
            } catch {
                throw ValidationError("\(error)")
            }
        }
        guard let first = stations.values.min(by: { ($0.id ?? 0) < ($1.id ?? 0) }), let id = first.id else {
            throw ValidationError(
                "There is no saved station to \(purpose); give --source (a station name, a URL or tone).", kind: .unprocessable)
        }
        return (.station(id: id), first.name)
    }

    /// A short name for a sound: the tone, the station's name, the URL.
    func label(_ source: SoundSource) -> String? {
        switch source {
        case .tone: "tone"
        case .station(let id): stations[id]?.name
        case .stream(let url): url.text
        case .podcast(let choice): choice.text
        }
    }

    /// The podcast followed under `name` (ignoring case).
    func podcast(named name: String) -> Podcast? {
        podcasts.first { $0.name.lowercased() == name.lowercased() }
    }
}
