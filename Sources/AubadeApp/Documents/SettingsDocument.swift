public import AubadeCore

/// The settings as `aubade settings get --json` and the API show them: each key of `SettingKey` with a JSON
/// bool, a number (seconds for a duration) or text (the fallback tone).
public enum SettingsDocument {
    public static func make(_ settings: AppSettings, keys: [SettingKey] = SettingKey.allCases) -> [String: JSONScalar] {
        var object: [String: JSONScalar] = [:]
        for key in keys { object[key.rawValue] = JSONScalar(key.jsonValue(in: settings)) }
        return object
    }
}
