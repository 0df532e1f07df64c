public import AubadeCore

/// A station as `aubade station … --json` and the API show it.
public struct StationDocument: Codable, Sendable, Hashable {
    public var id: Int64?
    public var name: String
    public var url: String
    public var alternateUrl: String?
    /// Where it was found, for a station saved from the public directory.
    public var directory: DirectoryLink?

    public init(_ s: Station) {
        id = s.id
        name = s.name
        url = s.url.text
        alternateUrl = s.alternateURL?.text
        directory = s.directory
    }
}

/// `{"stations": […]}`.
public struct StationList: Codable, Sendable, Hashable {
    public var stations: [StationDocument]
    public init(_ stations: [StationDocument]) { self.stations = stations }
}
