import AubadeCore
import AubadeStore
import AubadeTesting
import Foundation

/// A store on a fresh file, with the folder kept alive as long as the fixture.
struct StoreFixture {
    let dir: TemporaryDirectory
    let store: Store
    var path: String { store.path }

    init() throws {
        dir = try TemporaryDirectory("store")
        store = try Store.open(path: dir.file("aubade.sqlite"))
    }

    func sampleAlarm(_ name: String = "Work", _ time: String = "06:45") throws -> Alarm {
        Alarm(
            name: name, time: try LocalTime(parsing: time), recurrence: .weekly(.workdays), durationSeconds: 600,
            shakeToStop: true, sound: .tone, volume: 70, fadeInSeconds: 20, snoozeMinutes: 5, maxSnoozes: 2,
            skipDate: try LocalDate(parsing: "2026-12-25"), timeZoneID: "Europe/Berlin")
    }
}
