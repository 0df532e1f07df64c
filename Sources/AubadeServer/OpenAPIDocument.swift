public import Foundation

/// The OpenAPI 3 description of the API, `Resources/openapi.json` compiled into the binary, served at
/// `/api/v1/openapi.json`. A test holds its paths against the registered routes, both ways.
public enum OpenAPIDocument {
    /// The document's bytes.
    public static let data = Data(PackageResources.openapi_json)

    /// The methods the document gives the path `path` (a request's, e.g. "/api/v1/alarms/3"), in the order
    /// GET, POST, PUT, PATCH, DELETE — what a 405's `Allow` header lists. As in the router, a literal segment
    /// wins over a parameter: "/alarms/next" is not "/alarms/{id}".
    static func methods(at path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let matching = parsed.compactMap { operation -> (method: String, literals: Int)? in
            let template = operation.path.split(separator: "/", omittingEmptySubsequences: false)
            guard template.count == segments.count,
                zip(template, segments).allSatisfy({ t, s in t == s || (t.hasPrefix("{") && !s.isEmpty) })
            else { return nil }
            return (operation.method, template.filter { !$0.hasPrefix("{") }.count)
        }
        let best = matching.map(\.literals).max()
        let found = Set(matching.filter { $0.literals == best }.map(\.method))
        return ["GET", "POST", "PUT", "PATCH", "DELETE"].filter(found.contains)
    }

    private static let parsed: [(method: String, path: String)] = operations().map { operation in
        let parts = operation.split(separator: " ", maxSplits: 1)
        return (String(parts[0]), String(parts[1]))
    }

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
