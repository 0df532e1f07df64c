import FoundationEssentials

/// The clock's live state as the face reads it: the `data` of each `state` event of `GET /api/v1/events`
/// (`LiveState` in openapi.json). Only what the face shows is decoded; other fields are ignored, and the optional
/// ones may be missing. Times are Unix seconds.
public struct FaceState: Decodable, Sendable, Hashable {
    public struct AlarmRef: Decodable, Sendable, Hashable {
        public var id: Int64
        public var name: String

        public init(id: Int64, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// What rings: the alarms of the group, or a ring test (`test`: nothing to snooze).
    public struct Ringing: Decodable, Sendable, Hashable {
        public var alarms: [AlarmRef]
        public var test: Bool
        public var source: String
        public var audible: Bool
        public var notAudible: String?

        public init(alarms: [AlarmRef], test: Bool = false, source: String = "", audible: Bool = true, notAudible: String? = nil)
        {
            self.alarms = alarms
            self.test = test
            self.source = source
            self.audible = audible
            self.notAudible = notAudible
        }
    }

    /// What plays: its kind ("radio", "sleep timer", …), source, state ("connecting", "playing", "not playing"),
    /// problem, title, when the sleep timer ends, volume (1–100) and the saved station, if it is one.
    public struct Radio: Decodable, Sendable, Hashable {
        public var kind: String
        public var source: String
        public var state: String
        public var problem: String?
        public var title: String?
        public var endsAt: Double?
        public var volume: Int
        public var stationId: Int64?

        public init(
            kind: String = "radio", source: String, state: String = "playing", problem: String? = nil, title: String? = nil,
            endsAt: Double? = nil, volume: Int = 40, stationId: Int64? = nil
        ) {
            self.kind = kind
            self.source = source
            self.state = state
            self.problem = problem
            self.title = title
            self.endsAt = endsAt
            self.volume = volume
            self.stationId = stationId
        }
    }

    public struct Next: Decodable, Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var at: Double

        public init(id: Int64, name: String, at: Double) {
            self.id = id
            self.name = name
            self.at = at
        }
    }

    /// The sunrise's colours as the daemon computed them ("#rrggbb"): the face never computes them itself.
    public struct Sunrise: Decodable, Sendable, Hashable {
        public var permille: Int
        public var sky: String
        public var ink: String

        public init(permille: Int, sky: String, ink: String) {
            self.permille = permille
            self.sky = sky
            self.ink = ink
        }
    }

    /// The pairing code the clock shows now, and until when it is valid.
    public struct Pairing: Decodable, Sendable, Hashable {
        public var code: String
        public var expiresAt: Double

        public init(code: String, expiresAt: Double) {
            self.code = code
            self.expiresAt = expiresAt
        }
    }

    public struct Output: Decodable, Sendable, Hashable {
        public var name: String
        public var on: Bool

        public init(name: String, on: Bool) {
            self.name = name
            self.on = on
        }
    }

    public var now: Double
    public var zone: String
    public var ringing: Ringing?
    public var radio: Radio?
    public var next: Next?
    public var warnings: [String]
    public var dimmed: Bool
    public var face: String?
    public var sunrise: Sunrise?
    public var pairing: Pairing?
    public var wakeCheck: AlarmRef?
    public var outputs: [Output]

    public init(
        now: Double, zone: String, ringing: Ringing? = nil, radio: Radio? = nil, next: Next? = nil, warnings: [String] = [],
        dimmed: Bool = false, face: String? = nil, sunrise: Sunrise? = nil, pairing: Pairing? = nil,
        wakeCheck: AlarmRef? = nil, outputs: [Output] = []
    ) {
        self.now = now
        self.zone = zone
        self.ringing = ringing
        self.radio = radio
        self.next = next
        self.warnings = warnings
        self.dimmed = dimmed
        self.face = face
        self.sunrise = sunrise
        self.pairing = pairing
        self.wakeCheck = wakeCheck
        self.outputs = outputs
    }

    enum CodingKeys: String, CodingKey {
        case now, zone, ringing, radio, next, warnings, dimmed, face, sunrise, pairing, wakeCheck, outputs
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        now = try c.decode(Double.self, forKey: .now)
        zone = try c.decodeIfPresent(String.self, forKey: .zone) ?? "UTC"
        ringing = try c.decodeIfPresent(Ringing.self, forKey: .ringing)
        radio = try c.decodeIfPresent(Radio.self, forKey: .radio)
        next = try c.decodeIfPresent(Next.self, forKey: .next)
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
        dimmed = try c.decodeIfPresent(Bool.self, forKey: .dimmed) ?? false
        face = try c.decodeIfPresent(String.self, forKey: .face)
        sunrise = try c.decodeIfPresent(Sunrise.self, forKey: .sunrise)
        pairing = try c.decodeIfPresent(Pairing.self, forKey: .pairing)
        wakeCheck = try c.decodeIfPresent(AlarmRef.self, forKey: .wakeCheck)
        outputs = try c.decodeIfPresent([Output].self, forKey: .outputs) ?? []
    }

    /// The state in `bytes` (the JSON of one `state` event), or nil when they are not one.
    public static func decode(_ bytes: [UInt8]) -> FaceState? {
        try? JSONDecoder().decode(FaceState.self, from: Data(bytes))
    }
}
