import FoundationEssentials

/// A saved station as the picker shows it (`GET /api/v1/stations`): its id, name, and whether it has a logo
/// (`/stations/{id}/logo`).
public struct FaceStation: Decodable, Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var hasLogo: Bool

    public init(id: Int64, name: String, hasLogo: Bool = false) {
        self.id = id
        self.name = name
        self.hasLogo = hasLogo
    }

    struct Directory: Decodable {
        var logo: String?
    }

    enum CodingKeys: String, CodingKey { case id, name, directory }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int64.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        let logo = try c.decodeIfPresent(Directory.self, forKey: .directory)?.logo
        hasLogo = !(logo ?? "").isEmpty
    }

    struct List: Decodable {
        var stations: [FaceStation]
    }

    /// The stations of a `StationList` answer, or nil when `bytes` are not one.
    public static func decodeList(_ bytes: [UInt8]) -> [FaceStation]? {
        (try? JSONDecoder().decode(List.self, from: Data(bytes)))?.stations
    }
}
