import AubadeCore
import Foundation

extension ClockState {
    /// The home state at `now`.
    func homeState(_ now: SchedulerTime) -> HomeState {
        let scheduler = runner.scheduler
        let zone = scheduler.defaultZone
        let name = { (id: Int64) in scheduler.alarms[id]?.name ?? "" }
        let snoozes = scheduler.states.values.filter { $0.phase == .snoozed }
        var next = runner.next.map { HomeState.Next(alarmID: $0.id, name: name($0.id), at: $0.instant, snooze: false) }
        for state in snoozes {
            guard let until = state.snoozedUntil, next.map({ until < $0.at }) ?? true else { continue }
            next = HomeState.Next(alarmID: state.alarmID, name: name(state.alarmID), at: until, snooze: true)
        }
        let radio = self.radio.status(now)
        let activity: HomeState.Activity
        if runner.isRinging {
            activity = .ringing
        } else if !snoozes.isEmpty {
            activity = .snoozed
        } else if preAlarms.pending(scheduler, now.wall) != nil {
            activity = .preAlarm
        } else if radio != nil {
            activity = self.radio.isSleepTimer ? .sleep : .playing
        } else {
            activity = .idle
        }
        let stations = context.catalogue.stations.values.sorted { ($0.id ?? 0) < ($1.id ?? 0) }.map(\.name)
        // What sounds: the radio, or while an alarm rings, the alarm's station — or what it fell back to.
        var alarmStation: String?
        var alarmSource: String?
        if let r = runner.ringing {
            if r.fellBackTo == nil, case .station(let id)? = scheduler.alarms[r.alarmID]?.sound {
                alarmStation = context.catalogue.stations[id]?.name
            }
            alarmSource = r.fellBackTo.map { "\($0) (fallback)" } ?? alarmStation ?? r.source
        }
        let station = radio.flatMap { stations.contains($0.source) ? $0.source : nil } ?? alarmStation
        let calendar = ZoneCalendar(zone)
        let today = LocalDate(dayNumber: calendar.localDayNumber(of: now.wall))
        let names = AlarmDocument.stationNames(Array(context.catalogue.stations.values))
        let alarms = scheduler.alarms.keys.sorted().compactMap { id -> HomeState.AlarmEntry? in
            guard let alarm = scheduler.alarms[id] else { return nil }
            return HomeState.AlarmEntry(
                id: id, name: alarm.name, enabled: alarm.enabled, time: alarm.time.description,
                days: alarm.recurrence.repeatedText, source: AlarmDocument.soundName(alarm.sound, names),
                volume: alarm.volume,
                scheduledToday: today.map { rings(alarm, on: $0, zone: zone, scheduler.daysOff) } ?? false)
        }
        return HomeState(
            activity: activity, ringing: runner.isRinging, next: next, nextScheduled: runner.next?.id,
            zone: zone.identifier, alarms: alarms, stations: stations,
            volume: radio?.volume ?? context.catalogue.settings.defaultVolume, radioOn: radio != nil, station: station,
            sleepMinutesLeft: radio?.remainingSeconds.map { Int(($0 / 60).rounded(.up)) } ?? 0,
            nowPlaying: radio.map { r in r.title.map { "\(r.source) — \($0)" } ?? r.source } ?? alarmSource,
            sunrise: display.sunrise.map { s in
                HomeState.Sunrise(
                    alarmID: s.alarmID, at: s.alarmAt, progressPercent: s.permille / 10,
                    backlightPercent: display.backlightPercent, color: s.sky)
            },
            outputs: context.caps.outputs.map { HomeState.OutputState(name: $0, on: runner.outputsOn.contains($0)) })
    }

    /// Whether `alarm` is enabled and has an occurrence on `date` (in `zone`) that is not passed over.
    private func rings(_ alarm: Alarm, on date: LocalDate, zone: TimeZone, _ daysOff: DaysOff) -> Bool {
        alarm.enabled
            && AlarmSchedule.occurrences(of: alarm, onLocalDate: date, in: zone).contains {
                AlarmSchedule.skipReason(of: alarm, on: $0.date, daysOff: daysOff) == nil
            }
    }
}
