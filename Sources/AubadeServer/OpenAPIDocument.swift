public import Foundation

/// The OpenAPI 3 description of the API, `Resources/openapi.json` compiled into the binary, served at
/// `/api/v1/openapi.json`. A test holds its paths against the registered routes, both ways.
public enum OpenAPIDocument {
    /// The document's bytes.
    public static let data = Data(PackageResources.openapi_json)

    /// Every (method, path) the document describes, as "GET /api/v1/alarms/{id}".
    public static func operations() -> Set<String> {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let paths = object["paths"] as? [String: Any]
        else { return [] }
        var out: Set<String> = []
        for (path, item) in paths {
            guard let methods = item as? [String: Any] else { continue }
            for method in methods.keys where ["get", "post", "put", "patch", "delete"].contains(method) {
                out.insert("\(method.uppercased()) \(path)")
            }
        }
        return out
    }
}
