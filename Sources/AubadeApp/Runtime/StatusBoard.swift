import Foundation

/// The clock's standing warnings (R7, R20, R27, R36…), shown by `status`, the page and the kiosk: one
/// sentence each under a key. A value: `ClockContext.warn` sets one and prints it once when it appears or changes.
struct StatusBoard {
    private(set) var warnings: [String: String] = [:]

    /// Sets (or clears, with nil) the warning under `key`; true when there is a new text to print.
    mutating func set(_ key: String, _ text: String?) -> Bool {
        let old = warnings[key]
        warnings[key] = text
        return text != nil && text != old
    }

    /// Every warning, ordered by key.
    var list: [String] { warnings.keys.sorted().compactMap { warnings[$0] } }
}
