import AubadeHardware
import AubadeTesting
import Foundation
import Testing

@Suite("GPIO chip listing")
struct GPIOChipListingTests {
    @Test func listsOnlyGPIOCharacterDevicesSorted() throws {
        let dev = try TemporaryDirectory("dev")
        for name in ["gpiochip1", "gpiochip0", "null", "gpiomem", "snd"] {
            #expect(FileManager.default.createFile(atPath: dev.file(name), contents: nil))
        }
        #expect(GPIOLibrary.chipNames(devDirectory: dev.path) == ["gpiochip0", "gpiochip1"])
        #expect(GPIOLibrary.chipNames(devDirectory: dev.file("missing")) == [])
    }
}
