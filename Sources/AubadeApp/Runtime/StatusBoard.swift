import Foundation

/// The clock's standing warnings (R7, R20, R27, R36…), shown by `status`, the page and the kiosk: one
/// sentence each under a key, printed once when it appears or changes. Not Sendable: the clock actor owns it.
final class StatusBoard {
    private(set) var warnings: [String: String] = [:]
    let effects: Effects

    init(effects: Effects) {
        self.effects = effects
    }

    /// Sets (or clears, with nil) the warning under `key`. A new text is printed once, unless `announce` is
    /// false (its adapter already logged it).
    func set(_ key: String, _ text: String?, announce: Bool = true) {
        let old = warnings[key]
        warnings[key] = text
        if announce, let text, text != old { effects.emit("warning", ["message": text]) }
    }

    /// Every warning, ordered by key.
    var list: [String] { warnings.keys.sorted().compactMap { warnings[$0] } }
}
