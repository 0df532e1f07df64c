import AubadeApp
import AubadeConfig
import AubadeCore
import AubadeHardware

/// `aubade doctor`'s backlight line: whether the clock can drive the screen's backlight — for night dimming and
/// the alarms' sunrises — asked without changing it (access(2) on its files, `SysfsBacklight.writable`). Never a
/// problem: without a backlight the page still dims itself and shows the sunrise's colours (docs/HOUSE-RULES.md §8).
enum BacklightProbe {
    /// `root` prefixes /sys (a fake tree, for tests); `sunrises` names the enabled alarms with a sunrise;
    /// `daemonWarning` is the running clock's own backlight warning, if it has one.
    static func check(_ display: Configuration.Display, root: String, sunrises: [String], daemonWarning: String?)
        -> DoctorCheck
    {
        let uses = sunrises.isEmpty ? "night dimming" : "night dimming and the sunrise of \(sunrises.joined(separator: ", "))"
        let fix =
            "Give the aubade group write access to the backlight (deploy/99-aubade-backlight.rules), or set [display] backlight to a device in /sys/class/backlight."
        if display.backlight == "none" {
            return .ok(
                "backlight", "The backlight is not driven ([display] backlight = \"none\"); \(uses) changes only the page.")
        }
        let opened: SysfsBacklight
        do throws(BacklightError) {
            opened = try SysfsBacklight.open(root: root, name: display.backlight == "auto" ? nil : display.backlight)
        } catch {
            if display.backlight == "auto", SysfsBacklight.present(root: root).isEmpty {
                return .ok("backlight", "This machine has no screen backlight; \(uses) changes only the page.")
            }
            return .warning("backlight", error.message, fix: fix)
        }
        if let problem = opened.writable() {
            return .warning("backlight", problem.message + " So \(uses) changes only the page.", fix: fix)
        }
        if let daemonWarning {
            return .warning("backlight", daemonWarning, fix: fix)
        }
        let now = (try? opened.read()).map { ", now at \($0)" } ?? ""
        return .ok("backlight", "The clock can drive the \(opened.description)\(now), for \(uses).")
    }
}
