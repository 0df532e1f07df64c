/// The product's name and version, as the CLI prints them and as servers see them.
public enum Product {
    public static let version = "0.1.0"
    /// What every HTTP request says it is (`aubade/<version>`): the station directory asks its clients to name
    /// themselves, and a station's log shows who listens.
    public static var userAgent: String { "aubade/\(version)" }
}
