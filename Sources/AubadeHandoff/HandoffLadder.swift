/// An alarm's ladder as the second waker follows it (the core's `LadderPlan`, in the handoff files' words): while
/// unanswered it rings four steps of `stepSeconds` (its own level, louder, the tone at full, everything), then rests
/// `gapSeconds` and rings one step again at the top, `rounds` times; after the last round it is over —
/// `unanswered`, never silence before. `none` (step 0): no ladder — the ring lasts the alarm's duration, as a file
/// written without `ladder` lines (an older daemon's) says. Plain data: nothing here allocates.
public struct HandoffLadder: Equatable, Sendable {
    public var stepSeconds: Int
    public var louderDB: Int
    public var rounds: Int
    public var gapSeconds: Int

    /// No ladder: the ring ends after the alarm's duration.
    public static let none = HandoffLadder(stepSeconds: 0, louderDB: 0, rounds: 0, gapSeconds: 0)
    /// The steps of the first climb: own, louder, the tone, everything.
    public static let climbSteps = 4

    public init(stepSeconds: Int, louderDB: Int, rounds: Int, gapSeconds: Int) {
        self.stepSeconds = stepSeconds
        self.louderDB = louderDB
        self.rounds = rounds
        self.gapSeconds = gapSeconds
    }

    public var isOn: Bool { stepSeconds > 0 }

    /// Where a ring that began `elapsed` ms ago is on its ladder.
    public enum Phase: Equatable, Sendable {
        /// Ringing in `round` (0: the first climb), at `step` (0…3) of the climb; later rounds ring at the top.
        case ringing(round: Int, step: Int)
        /// Silent before `round`.
        case resting(before: Int)
        /// The last round rang unanswered.
        case over
    }

    /// The phase `elapsed` ms after the ring began (nil: no ladder).
    public func phase(afterMilliseconds elapsed: Int64) -> Phase? {
        guard isOn else { return nil }
        let step = Int64(stepSeconds) * 1000
        let climb = step * Int64(HandoffLadder.climbSteps)
        let e = max(0, elapsed)
        if e < climb { return .ringing(round: 0, step: Int(e / step)) }
        let period = Int64(gapSeconds) * 1000 + step
        let k = (e - climb) / period
        guard k < Int64(rounds) else { return .over }
        return (e - climb) % period < Int64(gapSeconds) * 1000
            ? .resting(before: Int(k) + 1) : .ringing(round: Int(k) + 1, step: HandoffLadder.climbSteps - 1)
    }

    /// Ms after the ring began at which the rest before `round` (1…`rounds`) ends: that round rings from then.
    public func restEnds(before round: Int) -> Int64 {
        let step = Int64(stepSeconds) * 1000
        return step * Int64(HandoffLadder.climbSteps) + Int64(round) * (Int64(gapSeconds) * 1000 + step) - step
    }

    /// How long a ring with this ladder lasts unanswered, in ms (nil: no ladder).
    public var totalMilliseconds: Int64? {
        guard isOn else { return nil }
        let step = Int64(stepSeconds) * 1000
        return step * Int64(HandoffLadder.climbSteps) + Int64(rounds) * (Int64(gapSeconds) * 1000 + step)
    }

    /// "ladder <step s> <louder dB> <rounds> <gap s>", the line after the entry it belongs to.
    func write(to w: TextWriter) {
        w.text("ladder ")
        w.int(Int64(stepSeconds))
        w.byte(UInt8(ascii: " "))
        w.int(Int64(louderDB))
        w.byte(UInt8(ascii: " "))
        w.int(Int64(rounds))
        w.byte(UInt8(ascii: " "))
        w.int(Int64(gapSeconds))
        w.byte(UInt8(ascii: "\n"))
    }

    /// The ladder on a "ladder" line, or nil when a field is missing or out of range (the entry then keeps none).
    init?(_ line: HandoffLine) {
        guard let step = line.int(0), let louder = line.int(1), let rounds = line.int(2), let gap = line.int(3),
            (1...7200).contains(step), (0...40).contains(louder), (0...100).contains(rounds), (0...86_400).contains(gap)
        else { return nil }
        self.init(stepSeconds: Int(step), louderDB: Int(louder), rounds: Int(rounds), gapSeconds: Int(gap))
    }
}
