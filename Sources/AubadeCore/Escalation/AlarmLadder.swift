/// An alarm's own choice of ladder (`alarm add/edit --ladder`, the `ladder` field of the API): the clock's
/// (`default`: whatever `[alarm] ladder` says), or a plan of its own — `off`, or steps such as `step=2m,rounds=5`.
///
/// Its text is what the CLI and the API take and show. A plan of its own that equals the standard one is written
/// `step=3m`, so that it reads back as its own (`default` would follow the clock's instead).
public enum AlarmLadder: Hashable, Sendable, Codable, CustomStringConvertible {
    /// As `[alarm] ladder` says.
    case clock
    /// Its own plan (`LadderPlan.off`: it rings for its duration and falls silent, as before the ladder).
    case own(LadderPlan)

    /// The plan this alarm climbs by, where the clock's is `clock`.
    public func plan(clock: LadderPlan) -> LadderPlan {
        switch self {
        case .clock: clock
        case .own(let plan): plan
        }
    }

    public var description: String {
        switch self {
        case .clock: "default"
        case .own(let plan) where plan == .standard: "step=\(DurationText.format(plan.stepSeconds))"
        case .own(let plan): plan.description
        }
    }

    /// Reads what `description` writes: `default` (or nothing) follows the clock's; anything else is a plan's text,
    /// refused in one sentence as `LadderPlan(parsing:)` refuses it.
    public init(parsing text: String) throws(ValidationError) {
        let trimmed = text.trimmingSpaces.lowercased()
        self = trimmed.isEmpty || trimmed == "default" ? .clock : .own(try LadderPlan(parsing: trimmed))
    }

    public init(from decoder: any Decoder) throws {
        self = try AlarmLadder(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
