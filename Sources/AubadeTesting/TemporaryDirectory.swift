import Foundation

/// A fresh folder under the system temp directory (or `base`), removed when the value is deinitialised.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "aubade", in base: String? = nil) throws {
        let base = base ?? FileManager.default.temporaryDirectory.path
        path = "\(base)/\(label)-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
