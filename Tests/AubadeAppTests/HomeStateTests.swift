import AubadeApp
import AubadeAppTesting
import AubadeCore
import AubadeTesting
import Foundation
import Synchronization
import Testing

/// What the MQTT face follows (`subscribeHome`), through the real `RunningClock` with a manual clock: the state
/// in the order the clock passes through it — pre-alarm, ringing, snoozed (the next alarm then the snooze's end),
/// idle — and the events between, in order.
@Suite("Daemon decisions: the home state and events")
struct HomeStateTests {
    /// Every update handed out so far, collected off the test's task, and a way to wait for one.
    final class Updates: Sendable {
        final class Seen: Sendable {
            let list = Mutex<[HomeUpdate]>([])
        }
        private let seen = Seen()
        private let changes = ChangeSignal()
        private let reader: Task<Void, Never>

        init(_ stream: AsyncStream<HomeUpdate>) {
            let (seen, changes) = (seen, changes)
            reader = Task {
                for await update in stream {
                    seen.list.withLock { $0.append(update) }
                    changes.bump()
                }
            }
        }

        deinit { reader.cancel() }

        var all: [HomeUpdate] { seen.list.withLock { $0 } }

        /// The first update at or after position `after` matching `match` (nil after a generous watchdog).
        func wait(after: Int = 0, _ match: @escaping @Sendable (HomeUpdate) -> Bool) async -> HomeUpdate? {
            let deadline = ContinuousClock.now + .seconds(60)
            while true {
                let generation = changes.generation
                if let found = all.dropFirst(after).first(where: match) { return found }
                if ContinuousClock.now >= deadline { return nil }
                await changes.wait(past: generation, until: deadline)
            }
        }

        /// Waits for a state whose activity is `activity` and returns it.
        func state(_ activity: HomeState.Activity) async -> HomeState? {
            guard case .state(let s)? = await wait({ if case .state(let s) = $0 { s.activity == activity } else { false } })
            else { return nil }
            return s
        }
    }

    @Test func thePreAlarmRingSnoozeAndStopInOrderWithTheNextAlarmSnoozeAware() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], preAlarmLeads: [300])
        await rig.start()
        let updates = Updates(try #require(try await rig.clock.send(.subscribeHome).home))
        let idle = try #require(await updates.state(.idle))
        #expect(idle.next?.at == ClockRig.at(7, 0) && idle.next?.snooze == false && idle.next?.name == "Alarm 1")
        #expect(idle.alarms.map(\.id) == [1] && idle.alarms.first?.scheduledToday == true)

        await rig.run(until: ClockRig.at(6, 55))
        let pre = try #require(await updates.state(.preAlarm))
        #expect(pre.next?.at == ClockRig.at(7, 0))
        await rig.run(until: ClockRig.at(7, 0))
        let ringing = try #require(await updates.state(.ringing))
        #expect(ringing.ringing && ringing.next?.at == ClockRig.at(7, 0).addingTimeInterval(86_400))

        _ = try await rig.clock.send(.command(.snooze(alarm: nil, by: .button), follow: false))
        let snoozed = try #require(await updates.state(.snoozed))
        #expect(!snoozed.ringing && snoozed.next?.snooze == true && snoozed.next?.alarmID == 1)
        #expect(snoozed.next?.at == ClockRig.at(7, 9), "the snooze's end is the next time it sounds")

        await rig.run(until: ClockRig.at(7, 9))
        _ = try #require(
            await updates.wait { if case .state(let s) = $0 { s.ringing && s.next?.snooze == false } else { false } })
        _ = try await rig.clock.send(.command(.stop(alarm: nil, by: .mqtt), follow: false))
        _ = try #require(
            await updates.wait {
                if case .state(let s) = $0 { s.activity == .idle && s.next?.at != ClockRig.at(7, 0) } else { false }
            })

        // The events, in order, between those states.
        let events = updates.all.compactMap { update -> String? in
            switch update {
            case .event(.preAlarm(let n)): "pre_alarm \(n.leadSeconds) \(n.willRing)"
            case .event(.recorded(let e)) where ["rang", "snoozed", "snooze-ended", "dismissed"].contains(e.kind):
                "\(e.kind) \(e.detail)"
            default: nil
            }
        }
        #expect(events.first == "pre_alarm 300 true")
        #expect(
            events.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" } == [
                "rang", "snoozed", "snooze-ended", "dismissed",
            ])
        #expect(events.last == "dismissed by=mqtt")
        let states = updates.all.compactMap { if case .state(let s) = $0 { s.activity.rawValue } else { nil } }
        #expect(states.first == "idle" && states.contains("pre_alarm"))
        #expect(states.firstIndex(of: "pre_alarm")! < states.firstIndex(of: "ringing")!)
        #expect(states.firstIndex(of: "ringing")! < states.firstIndex(of: "snoozed")!)
    }

    /// While a station alarm rings, the station and what plays are the alarm's.
    @Test func aRingingStationAlarmIsWhatPlays() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0, sound: .station(id: 5))], stations: [ClockRig.station(5)])
        await rig.start()
        let updates = Updates(try #require(try await rig.clock.send(.subscribeHome).home))
        await rig.run(until: ClockRig.at(7, 0))
        let ringing = try #require(await updates.state(.ringing))
        #expect(ringing.station == "FIP" && ringing.nowPlaying == "FIP" && !ringing.radioOn, "\(ringing)")
        let sound = try #require(rig.lastPlayed?.id)
        await rig.engineSays(.fallback(sound, from: "FIP", to: "tone", reason: "The station did not answer."))
        _ = try #require(
            await updates.wait {
                if case .state(let s) = $0 { s.nowPlaying == "tone (fallback)" && s.station == nil } else { false }
            })
        let mark = updates.all.count
        await rig.engineSays(.recovered(sound, to: "FIP"))
        _ = try #require(
            await updates.wait(after: mark) {
                if case .state(let s) = $0 { s.station == "FIP" && s.nowPlaying == "FIP" } else { false }
            })
    }

    @Test func withoutLeadsThereIsNoPreAlarmAndTheRadioIsPlayingOrSleep() async throws {
        let rig = ClockRig(alarms: [ClockRig.alarm(1, 7, 0)], stations: [ClockRig.station(5)])
        await rig.start()
        let updates = Updates(try #require(try await rig.clock.send(.subscribeHome).home))
        await rig.run(until: ClockRig.at(6, 59, 59))
        _ = try await rig.clock.send(.command(.sleep(seconds: 600, source: "FIP"), follow: false))
        let sleep = try #require(await updates.state(.sleep))
        #expect(sleep.station == "FIP" && sleep.sleepMinutesLeft == 10 && sleep.radioOn)
        // Everything before the sleep state has been read by now (the stream keeps the clock's order).
        #expect(!updates.all.contains { if case .event(.preAlarm) = $0 { true } else { false } })
        #expect(!updates.all.contains { if case .state(let s) = $0 { s.activity == .preAlarm } else { false } })
    }
}
