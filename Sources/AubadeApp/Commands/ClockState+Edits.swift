import AubadeCore
import Foundation

extension ClockState {
    /// An edit through the clock's store (`Store.apply`, one IMMEDIATE transaction, R26), handed off to the store's
    /// thread: a slow commit holds no ring back. When it comes back (`editDone`) the clock runs on the new data at
    /// once (reload, and the loop woken: a new alarm may be the next); `then` says what follows — for a face, the
    /// answer with what was saved.
    mutating func edit(_ edit: ClockEdit, reply: ClockTicket?, then: AfterEdit) {
        handOff(
            .edit(withDefaultSunrise(edit), zone: runner.scheduler.defaultZone, at: now.wall),
            then: .edit(reply: reply, then: then))
    }

    /// An edit came back from the store.
    mutating func editDone(
        _ result: Result<WorkResult.Edited, StoreError>, reply: ClockTicket?, then: AfterEdit, _ now: SchedulerTime
    ) {
        let outcome: Result<EditResult, ClockError>
        switch result {
        case .success(let edited):
            reload(edited.loaded)
            if let list = edited.tokens { context.effects.append(.tokens(list)) }
            context.effects.emit("edit", ["change": edited.outcome.summary])
            outcome = .success(EditResult(edited.outcome, stationNames: stationNames))
        case .failure(let error):
            outcome = .failure(ClockError(error))
        }
        switch then {
        case .answer:
            if let reply { context.effects.append(.answer(reply, outcome.map { .reply(.edited($0), events: nil) })) }
        case .nothing:
            break
        case .stationAdded(let prepared):
            if let reply { context.effects.append(.answer(reply, outcome.map { .reply(.edited($0), events: nil) })) }
            if case .failure = outcome { handOff(.discardStation(prepared), then: .discard) }
        case .calendar(let step):
            if let reply { calendarImported(outcome, step, reply: reply) }
        case .podcastRefreshed(let podcast):
            if let reply { podcastRefreshed(podcast, outcome.map { _ in () }, reply: reply) }
        case .episodeFeed(let name):
            switch outcome {
            case .success: context.warn("podcast-\(name)", nil)
            case .failure(let error):
                context.warn("podcast-\(name)", "The feed of podcast \(name) was read but not stored: \(error.message)")
            }
        case .stationMoved(let station, let moved):
            if let reply { stationMoved(station, to: moved, outcome.map { _ in () }, reply: reply) }
        }
    }

    /// A new alarm that names no sunrise gets `[display] sunrise`, from whichever face it came.
    private func withDefaultSunrise(_ edit: ClockEdit) -> ClockEdit {
        guard case .addAlarm(var patch) = edit, patch.sunriseSeconds == nil else { return edit }
        patch.sunriseSeconds = context.options.sunriseSeconds
        return .addAlarm(patch)
    }

    /// Trades the valid pairing code for a new device token called `name`. A wrong or expired code is
    /// `unauthorized` (the server counts it as a failed attempt); a refused name (empty, too long) leaves the
    /// code valid, so the user can pick another. Pairing under a name already paired replaces that device's
    /// token (its old one stops working): a phone whose browser forgot its token, or a kiosk whose browser
    /// profile is wiped at each boot, pairs again without piling up tokens. Whoever holds a valid code may
    /// already make a token, so this gives them nothing more.
    mutating func pair(code: String, name: String, reply: ClockTicket, _ now: SchedulerTime) throws(ClockError) {
        guard pairing.matches(code, at: now.wall) else {
            throw ClockError(.unauthorized, "The pairing code is wrong or has expired; ask the clock for a new one.")
        }
        handOff(.makeToken(name: name), then: .token(reply: reply))
    }

    /// The token a pairing made came back from the store.
    mutating func tokenMade(_ result: Result<WorkResult.MadeToken, StoreError>, reply: ClockTicket) {
        switch result {
        case .success(let made):
            pairing.consume()
            if let list = made.tokens { context.effects.append(.tokens(list)) }
            context.effects.emit("paired", ["name": made.token.name, "token": made.token.id])
            respond(
                to: reply, .reply(.paired(NewToken(token: made.secret, name: made.token.name, id: made.token.id)), events: nil))
        case .failure(let error):
            respond(to: reply, failure: ClockError(error))
        }
    }
}

extension EditOutcome {
    /// "alarm 3 saved", "station 2 removed", "settings saved": for the daemon's output.
    var summary: String {
        switch self {
        case .alarm(let a): "alarm \(a.id ?? 0) saved"
        case .alarmRemoved(let a): "alarm \(a.id ?? 0) removed"
        case .station(let s): "station \(s.id ?? 0) saved"
        case .stationRemoved(let s): "station \(s.id ?? 0) removed"
        case .programme(let p): "programme \(p.id ?? 0) saved"
        case .programmeRemoved(let p): "programme \(p.id ?? 0) removed"
        case .settings: "settings saved"
        case .imported(let summary):
            "\(summary.count) \(summary.kind == .programmes ? "programme(s)" : "day(s) off") imported from \(summary.location)"
        case .dayOff(let d): "day off \(d.id ?? 0) saved"
        case .dayOffRemoved(let d): "day off \(d.id ?? 0) removed"
        case .podcast(let p): "podcast \(p.id ?? 0) saved"
        case .podcastRemoved(let p): "podcast \(p.id ?? 0) removed"
        }
    }
}
