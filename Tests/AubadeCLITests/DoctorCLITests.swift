import AubadeTesting
import Foundation
import Testing

@Suite("aubade doctor (the built binary)")
struct DoctorCLITests {
    @Test func reportsGPIOButtonsShakeAndNetworkAsJSON() throws {
        let cli = try CLIHarness()
        let r = try cli.run(["doctor", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try cli.json(r.stdout)
        #expect((report["libgpiod"] as? String)?.hasPrefix("1.") == true)
        let text = r.stdout
        for word in ["GPIO17", "GPIO27", "GPIO22", "GPIO23"] { #expect(text.contains(word), "\(word) missing from \(text)") }
        let human = try cli.run(["doctor"])
        #expect(human.status == 0 && human.stdout.contains("Network:"))
    }
}
