import AubadeCore
import Foundation

extension RunningClock {
    /// An edit through the clock's store (`Store.apply`, one IMMEDIATE transaction, R26), on the store's thread —
    /// the clock is suspended meanwhile, never blocked, so a slow commit holds no ring back. The clock then runs on
    /// the new data at once (reload, and the loop woken: a new alarm may be the next) and answers after the commit
    /// with what was saved.
    func apply(_ edit: ClockEdit, _ now: SchedulerTime) async throws(ClockError) -> EditResult {
        let zone = runner.scheduler.defaultZone
        let edit = withDefaultSunrise(edit)
        let edited: Edited
        do throws(StoreError) {
            edited = try await worker.perform { store throws(StoreError) in
                let outcome = try store.apply(edit, zone: zone, now: now.wall)
                let loaded: Result<StoredClock, StoreError>
                do throws(StoreError) { loaded = .success(try store.load()) } catch { loaded = .failure(error) }
                return Edited(outcome: outcome, loaded: loaded, tokens: try? store.tokens())
            }
        } catch {
            throw ClockError(error)
        }
        reload(edited.loaded, deps.time.now())
        if let list = edited.tokens { tokens.replace(with: list) }
        effects.emit("edit", ["change": edited.outcome.summary])
        return EditResult(edited.outcome, stationNames: stationNames)
    }

    /// A new alarm that names no sunrise gets `[display] sunrise`, from whichever face it came.
    private func withDefaultSunrise(_ edit: ClockEdit) -> ClockEdit {
        guard case .addAlarm(var patch) = edit, patch.sunriseSeconds == nil else { return edit }
        patch.sunriseSeconds = options.sunriseSeconds
        return .addAlarm(patch)
    }

    /// What an edit committed, and the store as it is after it.
    private struct Edited: Sendable {
        var outcome: EditOutcome
        var loaded: Result<StoredClock, StoreError>
        var tokens: [AccessToken]?
    }

    /// Trades the valid pairing code for a new device token called `name`. A wrong or expired code is
    /// `unauthorized` (the server counts it as a failed attempt); a refused name (empty, too long) leaves the
    /// code valid, so the user can pick another. Pairing under a name already paired replaces that device's
    /// token (its old one stops working): a phone whose browser forgot its token, or a kiosk whose browser
    /// profile is wiped at each boot, pairs again without piling up tokens. Whoever holds a valid code may
    /// already make a token, so this gives them nothing more.
    func pair(code: String, name: String, _ now: SchedulerTime) async throws(ClockError) -> NewToken {
        guard pairing.matches(code, at: now.wall) else {
            throw ClockError(.unauthorized, "The pairing code is wrong or has expired; ask the clock for a new one.")
        }
        let made: Made
        do throws(StoreError) {
            made = try await worker.perform { store throws(StoreError) in
                let made = try store.createToken(name: name, replacing: true)
                return Made(token: made.token, secret: made.secret, tokens: try? store.tokens())
            }
        } catch {
            throw ClockError(error)
        }
        pairing.consume()
        if let list = made.tokens { tokens.replace(with: list) }
        effects.emit("paired", ["name": made.token.name, "token": made.token.id])
        return NewToken(token: made.secret, name: made.token.name, id: made.token.id)
    }

    /// A token made by pairing, and the tokens after it.
    private struct Made: Sendable {
        var token: AccessToken
        var secret: String
        var tokens: [AccessToken]?
    }

    /// The saved stations' names by id.
    var stationNames: [Int64: String] { catalogue.stations.mapValues(\.name) }
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
