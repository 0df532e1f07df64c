// The room check's decision (AubadeCore/RoomHearing) over the property tests' signals (Tests/AubadeCoreTests/
// RoomSignals.swift), built with -O by room_check_bench.sh: how often it is right, how soon it decides (seconds of
// the ring's capture), and its CPU time per second of audio. Figures, never checks.
import Foundation

typealias S = RoomSignals
var cpu = 0.0
var audio = 0.0

func threadCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func run(tone: Bool, noise: S.Noise, snr: Double, related: Bool, seed: UInt64) -> (RoomVerdict, Int) {
    var random = S.Random(state: seed)
    let peak = random.uniform(0.2...0.8)
    let gain = random.uniform(0.02...1)
    let signalRMS = peak * gain * (tone ? 0.4 : 0.35)
    let level = min(0.3, signalRMS / pow(10, snr / 20))
    let delay = Int(random.uniform(0...0.45) * Double(S.rate))
    let before = S.noise(noise, level: level, count: S.rate * 3 / 2, random: &random)
    let signal = tone ? S.tone(seconds: 4, peak: peak) : S.radio(seconds: 4, peak: peak, random: &random)
    let blocks = S.playedBlocks(signal, tone: tone ? ToneFrequencies(880, 1760) : .none)
    let room = S.noise(noise, level: level, count: signal.count, random: &random)
    let capture = related ? S.room(signal, delay: delay, gain: gain, noise: room) : room
    let start = threadCPU()
    let result = S.decide(before: before, capture: capture, played: blocks)
    cpu += threadCPU() - start
    audio += Double(result.blocks) * 0.025
    return result
}

var wrong: [String: Int] = [:]
var runs: [String: Int] = [:]
var latency: [String: [Double]] = [:]
for seed in UInt64(1)...100 {
    for tone in [false, true] {
        for noise in S.Noise.allCases {
            let kind = tone ? "tone" : "station"
            let (heard, fed) = run(tone: tone, noise: noise, snr: Double(seed % 25) + 6, related: true, seed: seed)
            runs["\(kind) played, \(noise) noise 6-30 dB under it", default: 0] += 1
            if heard.heard == true {
                latency[kind, default: []].append(Double(fed) * 0.025)
            } else {
                wrong["\(kind) played, \(noise) noise 6-30 dB under it: not heard", default: 0] += 1
            }
            let (unrelated, _) = run(tone: tone, noise: noise, snr: Double(seed % 41) - 20, related: false, seed: seed &+ 99_999)
            runs["\(kind) played, only \(noise) noise captured", default: 0] += 1
            if unrelated.heard != false { wrong["\(kind) played, only \(noise) noise captured: heard", default: 0] += 1 }
        }
    }
}
for (k, n) in runs.sorted(by: { $0.key < $1.key }) { print("room check: \(k): \(wrong[k + (k.contains("only") ? ": heard" : ": not heard")] ?? 0) wrong of \(n)") }
for (k, v) in latency.sorted(by: { $0.key < $1.key }) {
    let s = v.sorted()
    print(String(format: "room check: %@ heard after %.3f s of the ring (median), %.3f s (95th percentile), %.3f s (most)", k, s[s.count / 2], s[s.count * 95 / 100], s.last!))
}
print(String(format: "room check: %.2f ms of CPU per second of 16 kHz audio", cpu / audio * 1000))
