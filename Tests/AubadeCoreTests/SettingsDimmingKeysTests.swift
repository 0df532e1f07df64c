import Foundation
import Testing

@testable import AubadeCore

/// The night-dimming keys as settings: read and written like every other key, applied together in one change,
/// and coded in messages without ever carrying a level of 0 or two equal times.
@Suite("Settings: the night-dimming keys")
struct SettingsDimmingKeysTests {
    @Test func theKeysReadAsTextAndJSONLikeTheOthers() throws {
        var s = AppSettings()
        #expect(SettingKey.dimFrom.value(in: s) == "off" && SettingKey.dimUntil.value(in: s) == "07:00")
        #expect(SettingKey.dimLevel.value(in: s) == "10%" && SettingKey.dimLevel.jsonValue(in: s) as? Int == 10)
        try SettingKey.dimFrom.set("21:45", in: &s)
        try SettingKey.dimLevel.set(.number(3), in: &s)
        #expect(SettingKey.dimFrom.jsonValue(in: s) as? String == "21:45" && s.nightDimming.level == 3)
        #expect(SettingKey.allCases.suffix(3).map(\.rawValue) == ["dimFrom", "dimUntil", "dimLevel"])
        #expect(throws: ValidationError("Setting dimUntil takes a time from 00:00 to 23:59, like 22:00, or off, not '25:00'.")) {
            try SettingKey.dimUntil.set("25:00", in: &s)
        }
    }

    @Test(arguments: [
        [("dimFrom", "07:00"), ("dimUntil", "22:00")],
        [("dimUntil", "22:00"), ("dimFrom", "07:00")],
    ])
    func aChangeOfSeveralKeysIsCheckedAsAWhole(order: [(String, String)]) throws {
        var s = AppSettings()
        try s.apply([SettingChange(key: "dimFrom", value: .text("22:00"))])
        try s.apply(order.map { SettingChange(key: $0.0, value: .text($0.1)) })
        #expect(s.nightDimming.window?.description == "07:00–22:00")
    }

    @Test func aRefusedChangeLeavesEveryKeyAsItWas() throws {
        var s = AppSettings()
        let before = s
        #expect(throws: ValidationError("Setting dimLevel takes a brightness from 1% to 100%, like 10%, not '101'.")) {
            try s.apply([
                SettingChange(key: "defaultVolume", value: .number(20)), SettingChange(key: "dimLevel", value: .number(101)),
            ])
        }
        #expect(s == before)
    }

    @Test func codedAsTextAndCheckedWhenDecoded() throws {
        var s = AppSettings()
        try s.apply([SettingChange(key: "dimFrom", value: .text("22:00")), SettingChange(key: "dimLevel", value: .text("15%"))])
        let data = try JSONEncoder().encode(s.nightDimming)
        #expect(String(decoding: data, as: UTF8.self).contains(#""dimFrom":"22:00""#))
        #expect(try JSONDecoder().decode(NightDimmingSettings.self, from: data) == s.nightDimming)
        #expect(try JSONDecoder().decode(AppSettings.self, from: JSONEncoder().encode(s)) == s)
        let zero = Data(#"{"dimFrom":"22:00","dimUntil":"07:00","dimLevel":0}"#.utf8)
        #expect(throws: ValidationError.self) { try JSONDecoder().decode(NightDimmingSettings.self, from: zero) }
        let equal = Data(#"{"dimFrom":"07:00","dimUntil":"07:00","dimLevel":10}"#.utf8)
        #expect(throws: ValidationError.self) { try JSONDecoder().decode(NightDimmingSettings.self, from: equal) }
    }
}
