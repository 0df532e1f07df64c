import Foundation

/// One line of `aubade doctor`: what was checked, how it stands, and — unless it is fine — the one sentence
/// that says how to fix it.
///
/// The statuses mean: `ok`; `warning`, something is off but every alarm would still be heard (buttons not
/// found, a station that would give way to the tone, an unsynchronised clock, R7); `problem`, an alarm would
/// not be heard (no sound device, no clock running while an alarm is set, no readable alarms). Any problem
/// makes doctor exit 1.
struct DoctorCheck: Encodable, Sendable, Hashable {
    enum Status: String, Encodable, Sendable {
        case ok, warning, problem
    }

    /// The check's name: "sound", "daemon", "station:FIP", …
    var check: String
    var status: Status
    /// What was found, one or two sentences.
    var message: String
    /// How to fix it; nil when the status is ok.
    var fix: String?

    static func ok(_ check: String, _ message: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .ok, message: message, fix: nil)
    }

    static func warning(_ check: String, _ message: String, fix: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .warning, message: message, fix: fix)
    }

    static func problem(_ check: String, _ message: String, fix: String) -> DoctorCheck {
        DoctorCheck(check: check, status: .problem, message: message, fix: fix)
    }

    /// "ok       sound        The sound device … Fix: …" — the status and name in columns.
    var line: String {
        let head = status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
        let name = check.count < 12 ? check.padding(toLength: 12, withPad: " ", startingAt: 0) : check + " "
        return head + " " + name + " " + message + (fix.map { " Fix: \($0)" } ?? "")
    }
}
