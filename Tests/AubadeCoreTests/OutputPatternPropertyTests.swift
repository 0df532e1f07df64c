import AubadeCore
import PropertyBased
import Testing

/// The outputs' patterns and timings as properties: random patterns switched on and off at random instants and
/// sampled at random instants (and at every edge the wave announces) against a reference written from the
/// definition — a pulse is active for `on` ms from each period's start, inactive for `off` ms; never active
/// while off —, and every text form read back as it was written.
@Suite("Outputs: patterns, waves and timings as properties")
struct OutputPatternPropertyTests {
    struct Run: Sendable, CustomStringConvertible {
        var pattern: OutputPattern
        /// Milliseconds after the previous event, and what it is: 0 sample, 1 switch on, 2 switch off.
        var events: [(ms: Int, kind: Int)]
        var description: String { "\(pattern) \(events.count) events: \(events.prefix(30))…" }
    }

    static func pattern(_ rng: inout any SeededRandomNumberGenerator) -> OutputPattern {
        if Int.random(in: 0...4, using: &rng) == 0 { return .steady }
        let r = OutputPattern.halfRange
        func pick(_ rng: inout any SeededRandomNumberGenerator) -> Int {
            let any = Int.random(in: r, using: &rng)
            return [r.lowerBound, 51, 100, 250, 333, 500, 1000, 1500, r.upperBound, any][Int.random(in: 0...9, using: &rng)]
        }
        let on = pick(&rng)
        return .pulse(onMilliseconds: on, offMilliseconds: pick(&rng))
    }

    static let patterns = Generator<OutputPattern, Shrink.None<OutputPattern>> { rng in OutputPatternPropertyTests.pattern(&rng) }

    static let runs = Generator<Run, Shrink.None<Run>> { rng in
        let pattern = OutputPatternPropertyTests.pattern(&rng)
        let events = (0..<Int.random(in: 10...150, using: &rng)).map { _ in
            (
                ms: [0, 1, 49, 50, 99, 250, 499, 500, 501, 1000, 7777][Int.random(in: 0...10, using: &rng)],
                kind: [0, 0, 0, 0, 1, 2][Int.random(in: 0...5, using: &rng)]
            )
        }
        return Run(pattern: pattern, events: events)
    }

    /// The definition, from the switch-on instant: steady is always active; a pulse is active in the first `on`
    /// ms of each period of `on + off` ms.
    static func reference(_ p: OutputPattern, onFor ms: Int64) -> Bool {
        switch p {
        case .steady: true
        case .pulse(let on, let off): ms % Int64(on + off) < Int64(on)
        }
    }

    static func milliseconds(_ d: Duration) -> Int64 {
        d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    }

    @Test("a wave switched on and off at random follows its pattern while on and is never active while off")
    func theWaveFollowsItsPatternAndNeverLeavesALineOnAfterOff() async {
        await propertyCheck(count: 400, input: Self.runs) { run in
            var wave = OutputWave(pattern: run.pattern)
            var now = MonotonicInstant(seconds: 5_000)
            var onAt: MonotonicInstant?
            for event in run.events {
                // Every edge the wave announces before the next event is a real change of level, in order.
                let target = now + .milliseconds(event.ms)
                var t = now
                while let edge = wave.nextChange(after: t), edge <= target {
                    #expect(edge > t, "an edge is after the instant it was asked from")
                    let before = wave.isActive(at: edge - .milliseconds(1))
                    #expect(wave.isActive(at: edge) != before, "\(edge) is an edge: the level changes there")
                    t = edge
                }
                now = target
                switch event.kind {
                case 1:
                    wave.switchOn(at: now)
                    if onAt == nil { onAt = now }
                    #expect(wave.onSince == onAt, "switching on again keeps the phase")
                case 2:
                    wave.switchOff()
                    onAt = nil
                    #expect(!wave.isActive(at: now), "off is inactive at once")
                    #expect(wave.nextChange(after: now) == nil, "and stays so: no edge comes by itself")
                default: break
                }
                if let onAt {
                    let ms = Self.milliseconds(now - onAt)
                    #expect(wave.isActive(at: now) == Self.reference(run.pattern, onFor: ms))
                } else {
                    #expect(!wave.isActive(at: now), "never active while off")
                    #expect(!wave.isActive(at: now + .seconds(3600)))
                }
            }
        }
    }

    @Test("a pulse is active exactly `on` ms, then inactive exactly `off` ms, period after period")
    func onAndOffDurationsAreHonoured() async {
        await propertyCheck(count: 300, input: Self.patterns) { pattern in
            var wave = OutputWave(pattern: pattern)
            let start = MonotonicInstant(seconds: 100)
            wave.switchOn(at: start)
            #expect(wave.isActive(at: start), "switched on, it starts active")
            guard case .pulse(let on, let off) = pattern else {
                #expect(wave.nextChange(after: start) == nil, "steady never changes by itself")
                #expect(wave.isActive(at: start + .seconds(86_400)))
                return
            }
            var t = start
            var active = true
            for _ in 0..<20 {
                guard let edge = wave.nextChange(after: t) else {
                    Issue.record("a pulse always has a next edge")
                    return
                }
                #expect(edge - t == .milliseconds(active ? on : off), "each half lasts as the pattern says")
                active.toggle()
                #expect(wave.isActive(at: edge) == active)
                t = edge
            }
        }
    }

    @Test("patterns, timings and sound-after read back as written")
    func textRoundTrips() async {
        await propertyCheck(count: 300, input: Self.patterns) { pattern in
            #expect((try? OutputPattern(parsing: pattern.description)) == pattern)
            #expect((try? OutputPattern(parsing: "  \(pattern.description.uppercased()) ")) == pattern)
        }
        let timings = Generator<OutputTiming, Shrink.None<OutputTiming>> { rng in
            switch Int.random(in: 0...2, using: &rng) {
            case 0: .off
            case 1: .now
            default: .after(seconds: Int.random(in: OutputTiming.afterRange, using: &rng))
            }
        }
        await propertyCheck(count: 300, input: timings) { timing in
            #expect((try? OutputTiming(parsing: timing.description)) == timing)
        }
        let waits = Generator<Int, Shrink.None<Int>> { rng in Int.random(in: SoundAfter.range, using: &rng) }
        await propertyCheck(count: 300, input: waits) { seconds in
            let text = SoundAfter.text(.seconds(seconds))
            #expect((try? SoundAfter.value(parsing: text)) == .seconds(seconds), "\(text)")
        }
    }

    @Test(
        "bad text is refused in one sentence naming it",
        arguments: [
            ("pattern", "blink"), ("pattern", "500"), ("pattern", "0/500"), ("pattern", "500/49"), ("pattern", "500/500/5"),
            ("pattern", "60001/1000"), ("pattern", "-100/100"), ("timing", "later"), ("timing", "after:"),
            ("timing", "after:2"), ("timing", "after:2h"), ("timing", "2m"), ("sound", "11m"), ("sound", "15"),
            ("sound", "soon"), ("sound", "now"),
        ])
    func badTextIsRefused(kind: String, text: String) {
        do {
            switch kind {
            case "pattern": _ = try OutputPattern(parsing: text)
            case "timing": _ = try OutputTiming(parsing: text)
            default: _ = try SoundAfter.value(parsing: text)
            }
            Issue.record("'\(text)' was accepted as a \(kind)")
        } catch {
            #expect(error.message.contains("'\(text)'"), "\(error.message)")
            #expect(error.message.hasSuffix("."))
            #expect(!error.message.dropLast().contains(". "), "one sentence: \(error.message)")
        }
    }

    @Test("timings and sound-after say when, from the ring's start")
    func timingsFromTheStart() throws {
        #expect(try OutputTiming(parsing: "after:2m") == .after(seconds: 120))
        #expect(try OutputTiming(parsing: "after:0s") == .now)
        #expect(try OutputTiming(parsing: "AFTER:1m30s").description == "after:1m30s")
        let later = OutputTiming.after(seconds: 120)
        #expect(!later.isOn(after: .seconds(119)) && later.isOn(after: .seconds(120)))
        #expect(OutputTiming.now.isOn(after: .zero) && !OutputTiming.off.isOn(after: .seconds(86_400)))
        #expect(try SoundAfter.value(parsing: "1m") == .seconds(60) && SoundAfter.text(.seconds(90)) == "1m30s")
        #expect(try SoundAfter.value(parsing: "off") == nil && SoundAfter.value(parsing: "0") == nil)
        #expect(try SoundAfter.value(parsing: "0s") == nil && SoundAfter.text(nil) == "off")
        #expect(try OutputPattern(parsing: "steady") == .steady)
        #expect(try OutputPattern(parsing: "500 / 250") == .pulse(onMilliseconds: 500, offMilliseconds: 250))
    }
}
