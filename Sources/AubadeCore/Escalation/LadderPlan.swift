/// How an unanswered alarm climbs (`[alarm] ladder`, `alarm add/edit --ladder`): the alarm's sound at its volume and
/// fade; a step later, unanswered, the same `louderDB` louder (up to full volume); then the fallback tone at full
/// volume; then the outputs (a bed shaker, a lamp) and the `unanswered` event. After the top step it rests and rings
/// again — `rounds` times, `gap` apart (never less than five minutes) — instead of falling silent; only after the
/// last round does it stop, `unanswered`. `off`: the alarm rings at its level for its duration, as before.
public struct LadderPlan: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Whether the alarm climbs at all.
    public var enabled: Bool
    /// How long each step rings unanswered before the next.
    public var stepSeconds: Int
    /// How much louder the second step is, in dB (the volume scale is 40 dB over 0–100).
    public var louderDB: Int
    /// How many times it rings again after the first climb.
    public var rounds: Int
    /// The silence between rounds.
    public var gapSeconds: Int

    public static let stepRange = 30...1800
    public static let louderRange = 0...20
    public static let roundsRange = 0...10
    /// Rounds are never less than five minutes apart (a person who woke has time to stop it), nor more than two hours.
    public static let gapRange = 300...7200

    public init(enabled: Bool = true, stepSeconds: Int = 180, louderDB: Int = 6, rounds: Int = 3, gapSeconds: Int = 300) {
        self.enabled = enabled
        self.stepSeconds = min(max(stepSeconds, LadderPlan.stepRange.lowerBound), LadderPlan.stepRange.upperBound)
        self.louderDB = min(max(louderDB, LadderPlan.louderRange.lowerBound), LadderPlan.louderRange.upperBound)
        self.rounds = min(max(rounds, LadderPlan.roundsRange.lowerBound), LadderPlan.roundsRange.upperBound)
        self.gapSeconds = min(max(gapSeconds, LadderPlan.gapRange.lowerBound), LadderPlan.gapRange.upperBound)
    }

    public static let standard = LadderPlan()
    public static let off = LadderPlan(enabled: false)

    /// The volume of the second step: `louderDB` more on the engine's 40-dB scale (0.4 dB a step of 1), at most 100.
    public func louder(_ volume: Int) -> Int {
        min(100, volume + Int((Double(louderDB) / 0.4).rounded()))
    }

    /// `default`, `off`, or what differs from the default, comma-separated: `step=2m`, `louder=9dB`, `rounds=5`,
    /// `gap=10m` (a bare duration is the step).
    public var description: String {
        guard enabled else { return "off" }
        let standard = LadderPlan.standard
        var parts: [String] = []
        if stepSeconds != standard.stepSeconds { parts.append("step=\(DurationText.format(stepSeconds))") }
        if louderDB != standard.louderDB { parts.append("louder=\(louderDB)dB") }
        if rounds != standard.rounds { parts.append("rounds=\(rounds)") }
        if gapSeconds != standard.gapSeconds { parts.append("gap=\(DurationText.format(gapSeconds))") }
        return parts.isEmpty ? "default" : parts.joined(separator: ",")
    }

    /// Reads what `description` writes; a value out of range or a part it does not know is refused in one sentence
    /// that names it and the range.
    public init(parsing text: String) throws(ValidationError) {
        let text = text.trimmingSpaces.lowercased()
        switch text {
        case "default", "": self = .standard
        case "off": self = .off
        default:
            var plan = LadderPlan.standard
            for part in text.split(separator: ",").map({ String($0).trimmingSpaces }) {
                let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                let (key, value) = pair.count == 2 ? (pair[0], pair[1]) : ("step", pair[0])
                switch key {
                case "step":
                    plan.stepSeconds = try LadderPlan.seconds(value, key, LadderPlan.stepRange)
                case "gap":
                    plan.gapSeconds = try LadderPlan.seconds(value, key, LadderPlan.gapRange)
                case "louder":
                    let digits = value.hasSuffix("db") ? String(value.dropLast(2)) : value
                    guard let n = Int(digits), LadderPlan.louderRange.contains(n) else {
                        throw ValidationError("The ladder's louder step is 0 to 20 dB, not '\(value)'.")
                    }
                    plan.louderDB = n
                case "rounds":
                    guard let n = Int(value), LadderPlan.roundsRange.contains(n) else {
                        throw ValidationError("The ladder rings again 0 to 10 rounds, not '\(value)'.")
                    }
                    plan.rounds = n
                default:
                    throw ValidationError(
                        "The ladder takes default, off, or step=, louder=, rounds=, gap= (e.g. step=2m,rounds=5), not '\(part)'.")
                }
            }
            self = plan
        }
    }

    private static func seconds(_ text: String, _ key: String, _ range: ClosedRange<Int>) throws(ValidationError) -> Int {
        try DurationText.seconds(parsing: text, field: "The ladder's \(key)", in: range)
    }
}
