public import Foundation

/// The OpenAPI 3.1 description of the API, `Resources/openapi.json` compiled into the binary, served at
/// `/api/v1/openapi.json`, and checked against on every request and answer (`ContractGuard`). A test holds its
/// paths against the registered routes, both ways.
public enum OpenAPIDocument {
    /// The document's bytes.
    public static let data = Data(PackageResources.openapi_json)

    /// The document as the server checks against it; a failure names the first thing in it the checker cannot
    /// take (a test holds it compiling).
    static let compiled: Result<APIContract, JSONSchema.CompileError> = Result { () throws(JSONSchema.CompileError) in
        try APIContract(data)
    }

    /// The methods the document gives the path `path` (a request's, e.g. "/api/v1/alarms/3"), in the order
    /// GET, POST, PUT, PATCH, DELETE — what a 405's `Allow` header lists.
    static func methods(at path: String) -> [String] {
        guard let contract = try? compiled.get() else { return [] }
        let found = Set(contract.operations(at: path).map(\.operation.method))
        return ["GET", "POST", "PUT", "PATCH", "DELETE"].filter(found.contains)
    }

    /// Every (method, path) the document describes, as "GET /api/v1/alarms/{id}".
    public static func operations() -> Set<String> {
        Set(((try? compiled.get())?.operations ?? []).map(\.name))
    }
}
