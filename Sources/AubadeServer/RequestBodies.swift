import AubadeApp
import AubadeCore
import Foundation

/// The small JSON bodies of the API's commands. Each refuses a key it does not know (a typo is never ignored
/// silently); JSON keys mirror the CLI's options.
enum Bodies {
    struct Skip: Decodable {
        var undo = false
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["undo"], what: "field")
            undo = try decoder.container(keyedBy: Key.self).decodeIfPresent(Bool.self, forKey: Key("undo")) ?? false
        }
    }

    struct Play: Decodable {
        var source: String
        var seconds: Int?
        var volume: Int?
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["source", "seconds", "volume"], what: "field")
            let c = try decoder.container(keyedBy: Key.self)
            guard let source = try c.decodeIfPresent(String.self, forKey: Key("source")) else {
                throw ValidationError("Say what to play: give 'source' (tone, a saved station's name or a stream URL).")
            }
            self.source = source
            seconds = try c.decodeIfPresent(Int.self, forKey: Key("seconds"))
            volume = try c.decodeIfPresent(Int.self, forKey: Key("volume"))
        }
    }

    struct Volume: Decodable {
        var volume: Int
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["volume"], what: "field")
            guard let volume = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: Key("volume")) else {
                throw ValidationError("Give 'volume', 1 to 100.")
            }
            self.volume = volume
        }
    }

    /// `POST /sleep`: `seconds` and `source`, or `untilEndOf` — a programme's id, or "on-air" for the one on air.
    struct Sleep: Decodable {
        var seconds: Int?
        var source: String?
        var untilEnd: Bool
        var programme: Int64?
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["seconds", "source", "untilEndOf"], what: "field")
            let c = try decoder.container(keyedBy: Key.self)
            seconds = try c.decodeIfPresent(Int.self, forKey: Key("seconds"))
            source = try Bodies.source(c)
            untilEnd = c.contains(Key("untilEndOf"))
            if let id = try? c.decodeIfPresent(Int64.self, forKey: Key("untilEndOf")) {
                programme = id
            } else if untilEnd, try c.decodeIfPresent(String.self, forKey: Key("untilEndOf")) != "on-air" {
                throw ValidationError("Give 'untilEndOf' a programme's id, or \"on-air\" for the programme on air.")
            }
            if untilEnd, seconds != nil { throw ValidationError("Give 'seconds' or 'untilEndOf', not both.") }
        }
    }

    /// `POST /programmes/{id}/reserve`: an optional reminder lead in seconds, `remindSeconds` (0 chimes at the
    /// start; the key the programme's document shows it under).
    struct Reserve: Decodable {
        var remindSeconds: Int?
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["remindSeconds"], what: "field")
            remindSeconds = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: Key("remindSeconds"))
        }
    }

    /// `POST /programmes/import`, `/days-off/import`: the calendar's http(s) URL (the clock downloads it), and for
    /// programmes the saved station they are on.
    struct CalendarURL: Decodable {
        var url: StreamURL
        var station: String?
        init(from decoder: any Decoder, station allowed: Bool) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: allowed ? ["url", "station"] : ["url"], what: "field")
            let c = try decoder.container(keyedBy: Key.self)
            guard let text = try c.decodeIfPresent(String.self, forKey: Key("url")) else {
                throw ValidationError("Give 'url', the calendar's http(s) address.")
            }
            url = try StreamURL(parsing: text)
            station = allowed ? try c.decodeIfPresent(String.self, forKey: Key("station")) : nil
        }
        init(from decoder: any Decoder) throws { try self.init(from: decoder, station: true) }
    }

    struct HolidayURL: Decodable {
        var url: StreamURL
        init(from decoder: any Decoder) throws { url = try CalendarURL(from: decoder, station: false).url }
    }

    struct Extend: Decodable {
        var minutes: Int
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["minutes"], what: "field")
            guard let minutes = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: Key("minutes")) else {
                throw ValidationError("Give 'minutes', 1 to 720.")
            }
            self.minutes = minutes
        }
    }

    struct Ring: Decodable {
        var test: RingTest
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["alarm", "source", "seconds", "volume"], what: "field")
            let c = try decoder.container(keyedBy: Key.self)
            guard let seconds = try c.decodeIfPresent(Int.self, forKey: Key("seconds")) else {
                throw ValidationError("Give 'seconds', how long to ring (1 to 3600).")
            }
            test = RingTest(
                alarm: try c.decodeIfPresent(Int64.self, forKey: Key("alarm")),
                source: try Bodies.source(c), seconds: seconds,
                volume: try c.decodeIfPresent(Int.self, forKey: Key("volume")))
        }
    }

    /// `POST /outputs/{name}`: `on`, true or false.
    struct Output: Decodable {
        var on: Bool
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["on"], what: "field")
            guard let on = try decoder.container(keyedBy: Key.self).decodeIfPresent(Bool.self, forKey: Key("on")) else {
                throw ValidationError("Give 'on', true or false.")
            }
            self.on = on
        }
    }

    struct Dismiss: Decodable {
        var alarm: Int64?
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["alarm"], what: "field")
            alarm = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int64.self, forKey: Key("alarm"))
        }
    }

    struct Pair: Decodable {
        var code: String
        var name: String
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["code", "name"], what: "field")
            let c = try decoder.container(keyedBy: Key.self)
            guard let code = try c.decodeIfPresent(String.self, forKey: Key("code")),
                code.utf8.count == 6, code.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else {
                throw ValidationError("Give 'code', the 6 digits the clock shows.")
            }
            guard let name = try c.decodeIfPresent(String.self, forKey: Key("name")) else {
                throw ValidationError("Give 'name', what to call this device (e.g. phone).")
            }
            self.code = code
            self.name = try AccessToken.validName(name)
        }
    }

    /// `PATCH /settings`: a subset of the keys of `GET /settings`, each with its JSON value.
    struct Settings: Decodable {
        var changes: [SettingChange]
        init(from decoder: any Decoder) throws {
            let values = try decoder.singleValueContainer().decode([String: SettingValue].self)
            changes = try values.keys.sorted().map { name throws(ValidationError) in
                let key = try SettingKey(parsing: name)
                let value = values[name]!
                // The API takes each value in the JSON type `GET /settings` shows (durations in seconds); the CLI's
                // text forms ("30m", "on") are for `aubade settings set`.
                guard key.jsonType.admits(value) else {
                    let wanted =
                        switch key.jsonType {
                        case .boolean: "true or false"
                        case .integer: key.isDuration ? "a whole number of seconds" : "a whole number"
                        case .text: "text"
                        }
                    throw ValidationError("Setting \(name) takes \(wanted) here.")
                }
                return SettingChange(key: name, value: value)
            }
        }
    }

    /// `POST /stations/from-directory`: the directory's id of the station (exactly its form: no spaces around), and
    /// optionally what to call it.
    struct FromDirectory: Decodable {
        var id: String
        var name: String?
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["id", "name"], what: "field")
            let c = try decoder.container(keyedBy: Key.self)
            guard let id = try c.decodeIfPresent(String.self, forKey: Key("id")), id == id.trimmingCharacters(in: .whitespaces)
            else {
                throw ValidationError("Give 'id', the directory's id of the station (the 'id' of a search result).")
            }
            self.id = try DirectoryQuery.stationID(id)
            name = try c.decodeIfPresent(String.self, forKey: Key("name"))
        }
    }

    /// `POST /podcasts`: the feed's http(s) address, and optionally what to call the podcast.
    struct PodcastFeed: Decodable {
        var feed: StreamURL
        var name: String?
        init(from decoder: any Decoder) throws {
            try StrictKeys.refuseUnknown(in: decoder, known: ["feed", "name"], what: "field")
            let c = try decoder.container(keyedBy: Key.self)
            guard let text = try c.decodeIfPresent(String.self, forKey: Key("feed")) else {
                throw ValidationError("Give 'feed', the podcast feed's http(s) address.")
            }
            feed = try StreamURL(parsing: text)
            if let name = try c.decodeIfPresent(String.self, forKey: Key("name")) {
                self.name = try Names.validated(name, what: "Podcast name")
            }
        }
    }

    /// An optional `source`: left out, the clock's default plays; given, it must name something (an empty one
    /// is refused rather than read as "the default").
    static func source(_ c: KeyedDecodingContainer<Key>) throws -> String? {
        let source = try c.decodeIfPresent(String.self, forKey: Key("source"))
        if source?.isEmpty == true {
            throw ValidationError("Give 'source' a saved station's name, a URL or tone, or leave it out for the default.")
        }
        return source
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// Small answers: a sentence, a started sound, a deleted id.
enum Answers {
    struct Message: Encodable {
        var message: String
    }

    struct Display: Encodable {
        var dimmed: Bool
    }

    struct Sound: Encodable {
        var sound: Int
        var label: String
        var message: String
    }

    struct Deleted: Encodable {
        var deleted: Int64
    }

    struct Paired: Encodable {
        var token: String
        var name: String
        var id: Int64
    }
}
