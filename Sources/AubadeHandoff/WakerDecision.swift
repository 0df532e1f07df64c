/// What the second waker does, decided from what it knows: the daemon's next-alarm file, its heartbeat, the
/// waker's own state and the time (R35). Pure and allocation-free: the waker calls it after every change and
/// the tests call it over tables of file states × heartbeats × instants.
///
/// A ring is *open* when nothing shows it handled:
/// - the heartbeat has no record handling it (`HeartbeatRecord.handles`: this round or a later one heard or
///   snoozed, the occurrence stopped or skipped, or a later occurrence handled);
/// - the waker did not end it already (a `rang` line for the same alarm and occurrence that ended the
///   occurrence — stop, duration, unanswered — or this round or a later one — snooze, daemon; one ended by a shutdown of
///   the waker is not over, so a waker started again resumes it);
/// - no person stopped or snoozed the waker at or after the moment it rings (`quietThrough`: a person's stop
///   covers every ring due by then, as a stop covers the daemon's whole ringing group);
/// - its time is not over: it rings at due + grace and ends after its ladder's last round, or without a ladder a
///   duration later.
///
/// The waker's own snoozed ring (a person snoozed the waker) is one more, unless the next-alarm file lists that
/// same ring: a daemon back in the meantime took the snooze over, and its entry carries the grace.
///
/// Of the open rings the one that rings first (the lowest alarm id on a tie) is armed, or rung when its time
/// has come. A next-alarm file that is missing or unreadable counts as having no entries: only the waker's
/// own snoozed ring is left.
public enum WakerDecision {
    public enum Verdict: Equatable, Sendable {
        /// Nothing to guard.
        case idle
        /// Sleep until `at` (Unix ms on the waker's wall clock), then decide again.
        case wait(HandoffEntry, at: Int64)
        /// Ring `entry` now.
        case ring(HandoffEntry)
    }

    public static func decide(
        next: borrowing NextAlarmFile, heartbeat: borrowing HeartbeatFile,
        state: borrowing WakerStateFile, now: Int64, grace: Int64
    ) -> Verdict {
        var best: HandoffEntry?
        for e in next.entries where isOpen(e, heartbeat: heartbeat, state: state, now: now, grace: grace) {
            if let b = best, !rings(e, before: b, grace: grace) { continue }
            best = e
        }
        if let own = state.snoozed, !next.entries.contains(where: { $0.isSameRing(as: own) }),
            isOpen(own, heartbeat: heartbeat, state: state, now: now, grace: grace)
        {
            if best.map({ rings(own, before: $0, grace: grace) }) ?? true { best = own }
        }
        guard let best else { return .idle }
        let at = best.ringsAt(grace: grace)
        return at <= now ? .ring(best) : .wait(best, at: at)
    }

    /// Whether `e` still needs ringing by the waker at `now` (see the type's rules).
    public static func isOpen(
        _ e: HandoffEntry, heartbeat: borrowing HeartbeatFile, state: borrowing WakerStateFile,
        now: Int64, grace: Int64
    ) -> Bool {
        guard e.endsAt(grace: grace) > now, e.ringsAt(grace: grace) > state.quietThrough else { return false }
        if heartbeat.handling(e) != nil { return false }
        for r in state.rang where r.alarm == e.alarm {
            if r.occurrence > e.occurrence { return false }
            guard r.occurrence == e.occurrence else { continue }
            switch r.end {
            case .stop, .duration, .unanswered: return false
            case .snooze, .daemon: if r.round >= e.round { return false }
            case .shutdown: continue
            }
        }
        return true
    }

    /// Whether `a` rings before `b` (the lower alarm id first at the same instant).
    static func rings(_ a: HandoffEntry, before b: HandoffEntry, grace: Int64) -> Bool {
        let (x, y) = (a.ringsAt(grace: grace), b.ringsAt(grace: grace))
        return x < y || (x == y && a.alarm < b.alarm)
    }
}
