extension FaceInputs {
    /// The clock's time (Unix seconds) at which the face next changes by itself: the next minute of the clock in its
    /// zone, or sooner the next whole minute of the sleep timer or of the pairing code's validity. Always after `now`
    /// and at most 60 s away, so the face can sleep until then.
    public var nextRepaint: Double {
        let local = now + Double(zone.offset(at: now))
        let intoMinute = local - (local / 60).rounded(.down) * 60
        var next = now + (60 - intoMinute)
        for end in [state?.radio?.endsAt, ui.pairingOpen ? state?.pairing?.expiresAt : nil].compactMap({ $0 }) where end > now {
            // The whole minutes left (rounded up) change when what is left crosses a multiple of 60 s.
            let left = end - now
            let step = end - ((left / 60).rounded(.up) - 1) * 60
            if step > now { next = min(next, step) }
        }
        return next > now ? next : now + 60
    }
}
