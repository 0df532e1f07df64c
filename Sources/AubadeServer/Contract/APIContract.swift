import Foundation

/// The API document compiled for checking: each operation with its parameters, its body's schema and its
/// answers, and the named schemas they refer to.
struct APIContract: Sendable {
    struct Parameter: Sendable {
        enum Location: String, Sendable { case path, query }
        let name: String
        let location: Location
        let required: Bool
        /// The schema's `type`, which says how the text of the URL is read as a value.
        let type: String
        let schema: JSONSchema
    }

    /// One declared answer: its body's media types and schema (JSON only), and the headers it must carry.
    struct Answer: Sendable {
        let mediaTypes: Set<String>
        let schema: JSONSchema?
        let requiredHeaders: [String]
    }

    struct Operation: Sendable {
        let method: String
        /// In OpenAPI form: "/api/v1/alarms/{id}".
        let path: String
        let parameters: [Parameter]
        /// The JSON body's schema, and whether the body is required.
        let body: (required: Bool, schema: JSONSchema)?
        /// By status code.
        let answers: [Int: Answer]
        var name: String { "\(method) \(path)" }
        fileprivate let segments: [Substring]
    }

    let operations: [Operation]
    let book: JSONSchema.Book

    init(_ data: Data) throws(JSONSchema.CompileError) {
        func fail(_ at: String, _ problem: String) -> JSONSchema.CompileError { .init(at: at, problem: problem) }
        guard case .object(let document)? = JSONValue.parse(data) else { throw fail("#", "the document is not a JSON object") }
        let components = document["components"]?.members ?? [:]
        var schemas: [String: JSONSchema] = [:]
        for (name, schema) in components["schemas"]?.members ?? [:] {
            schemas[name] = try JSONSchema(schema, at: "#/components/schemas/\(name)")
        }
        var answers: [String: Answer] = [:]
        for (name, answer) in components["responses"]?.members ?? [:] {
            answers[name] = try APIContract.answer(answer, at: "#/components/responses/\(name)", named: [:])
        }
        var operations: [Operation] = []
        for (path, item) in document["paths"]?.members ?? [:] {
            let shared = try APIContract.parameters(item.members?["parameters"], at: "#/paths\(path)/parameters")
            for (method, operation) in item.members ?? [:] where APIContract.methods.contains(method) {
                let at = "#/paths\(path)/\(method)"
                guard let fields = operation.members else { throw fail(at, "an operation must be an object") }
                let own = try APIContract.parameters(fields["parameters"], at: at + "/parameters")
                var body: (Bool, JSONSchema)?
                if let request = fields["requestBody"]?.members {
                    guard let schema = request["content"]?.members?["application/json"]?.members?["schema"] else {
                        throw fail(at, "a request body must be JSON with a schema")
                    }
                    body = (request["required"]?.isTrue ?? false, try JSONSchema(schema, at: at + "/requestBody"))
                }
                var byStatus: [Int: Answer] = [:]
                for (status, answer) in fields["responses"]?.members ?? [:] {
                    guard let code = Int(status) else { throw fail(at, "the answer \(status) is not a status code") }
                    byStatus[code] = try APIContract.answer(answer, at: "\(at)/responses/\(status)", named: answers)
                }
                operations.append(
                    Operation(
                        method: method.uppercased(), path: path,
                        parameters: own + shared.filter { p in !own.contains { $0.name == p.name } }, body: body,
                        answers: byStatus, segments: path.split(separator: "/", omittingEmptySubsequences: false)))
            }
        }
        book = JSONSchema.Book(schemas)
        let everything = schemas.values.flatMap(\.references)
        if let missing = everything.first(where: { schemas[$0] == nil }) {
            throw fail("#/components/schemas", "$ref to \(missing), which the document lacks")
        }
        self.operations = operations.sorted { $0.name < $1.name }
    }

    private static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    private static func parameters(_ list: JSONValue?, at: String) throws(JSONSchema.CompileError) -> [Parameter] {
        guard let list else { return [] }
        guard case .array(let items) = list else { throw JSONSchema.CompileError(at: at, problem: "must be an array") }
        var out: [Parameter] = []
        for (index, item) in items.enumerated() {
            let here = "\(at)/\(index)"
            guard let fields = item.members, let name = fields["name"]?.text,
                let location = fields["in"]?.text.flatMap(Parameter.Location.init(rawValue:)),
                let schema = fields["schema"], let type = schema.members?["type"]?.text
            else {
                throw JSONSchema.CompileError(
                    at: here, problem: "a parameter needs a name, a place (path or query) and a schema with a type")
            }
            out.append(
                Parameter(
                    name: name, location: location, required: fields["required"]?.isTrue ?? false, type: type,
                    schema: try JSONSchema(schema, at: here + "/schema")))
        }
        return out
    }

    private static func answer(_ value: JSONValue, at: String, named: [String: Answer]) throws(JSONSchema.CompileError)
        -> Answer
    {
        guard let fields = value.members else { throw JSONSchema.CompileError(at: at, problem: "must be an object") }
        if let ref = fields["$ref"]?.text {
            let prefix = "#/components/responses/"
            guard ref.hasPrefix(prefix), let found = named[String(ref.dropFirst(prefix.count))] else {
                throw JSONSchema.CompileError(at: at, problem: "$ref \(ref) is not a named response")
            }
            return found
        }
        let content = fields["content"]?.members ?? [:]
        let headers = (fields["headers"]?.members ?? [:]).filter { $0.value.members?["required"]?.isTrue ?? false }
        return Answer(
            mediaTypes: Set(content.keys),
            schema: try content["application/json"]?.members?["schema"].map { v throws(JSONSchema.CompileError) in
                try JSONSchema(v, at: at + "/content")
            },
            requiredHeaders: headers.keys.sorted())
    }

    /// The operations whose path template `path` fits, with the values of its parameters. As in the router, a
    /// literal segment wins over a parameter: "/alarms/next" is not "/alarms/{id}".
    func operations(at path: String) -> [(operation: Operation, values: [String: String])] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var best = -1
        var found: [(operation: Operation, values: [String: String])] = []
        for operation in operations where operation.segments.count == segments.count {
            var values: [String: String] = [:]
            var literals = 0
            var fits = true
            for (template, segment) in zip(operation.segments, segments) {
                if template.hasPrefix("{") && template.hasSuffix("}") && !segment.isEmpty {
                    values[String(template.dropFirst().dropLast())] = String(segment).removingPercentEncoding ?? String(segment)
                } else if template == segment {
                    literals += 1
                } else {
                    fits = false
                    break
                }
            }
            guard fits, literals >= best else { continue }
            if literals > best { found = [] }
            best = literals
            found.append((operation, values))
        }
        return found
    }

    /// The operation for `method` on `path`, with its path parameters' values.
    func operation(_ method: String, _ path: String) -> (operation: Operation, values: [String: String])? {
        operations(at: path).first { $0.operation.method == method }
    }
}

extension JSONValue {
    fileprivate var members: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    fileprivate var text: String? {
        if case .string(let text) = self { text } else { nil }
    }

    fileprivate var isTrue: Bool {
        if case .bool(true) = self { true } else { false }
    }
}

extension APIContract.Operation {
    /// Where a request does not fit the operation, in words, or nil when it fits: its path parameters'
    /// `values`, its `query` (as sent, percent-encoded), and its JSON `body` (an empty body reads as `{}`, as the
    /// routes read it). A parameter's text is read by its schema's type: an integer only as whole-number digits.
    func violation(values: [String: String], query: String?, body: Data, in book: JSONSchema.Book) -> String? {
        let sent = APIContract.queryItems(query)
        for parameter in parameters {
            let text = parameter.location == .path ? values[parameter.name] : sent.first { $0.name == parameter.name }?.value
            guard let text else {
                if parameter.required { return "the \(parameter.location.rawValue) parameter '\(parameter.name)' is missing" }
                continue
            }
            let value = APIContract.value(text, as: parameter.type)
            if let found = parameter.schema.violation(of: value, in: book) {
                return "the \(parameter.location.rawValue) parameter '\(parameter.name)' \(found.problem)"
            }
        }
        guard let (_, schema) = self.body else { return nil }
        guard let value = JSONValue.parse(body.isEmpty ? Data("{}".utf8) : body) else { return "the body is not JSON" }
        return schema.violation(of: value, in: book).map {
            "the body\($0.pointer.isEmpty ? "" : "'s \($0.pointer)") \($0.problem)"
        }
    }

    /// Where an answer departs from the operation's declared answers, in words, or nil when it is one of them:
    /// its status, its required headers (`has` says whether one is there), its media type and its JSON body.
    func breach(status: Int, mediaType: String?, has: (String) -> Bool, body: Data?, in book: JSONSchema.Book) -> String? {
        guard let answer = answers[status] else {
            return "\(status) is not among its answers (\(answers.keys.sorted().map(String.init).joined(separator: ", ")))"
        }
        if let missing = answer.requiredHeaders.first(where: { !has($0) }) { return "its \(status) lacks the header \(missing)" }
        guard !answer.mediaTypes.isEmpty else { return nil }
        guard let mediaType, answer.mediaTypes.contains(mediaType) else {
            return "its \(status) is \(mediaType ?? "untyped"), not \(answer.mediaTypes.sorted().joined(separator: " or "))"
        }
        guard let schema = answer.schema, let body else { return nil }
        guard let value = JSONValue.parse(body) else { return "its \(status) body is not JSON" }
        return schema.violation(of: value, in: book).map { "its \(status) body does not fit: \($0)" }
    }
}

extension APIContract {
    /// A query's items in order, names as sent and values percent-decoded (a "+" stays a "+").
    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? String(parts[1]) : ""
            return (String(parts[0]), value.removingPercentEncoding ?? value)
        }
    }

    /// A parameter's text as the JSON value its schema's `type` reads it as (the text itself when it is not one).
    static func value(_ text: String, as type: String) -> JSONValue {
        switch type {
        case "integer":
            return Int64(text).map(JSONValue.integer) ?? .string(text)
        case "number":
            if let whole = Int64(text) { return .integer(whole) }
            return Double(text).flatMap { $0.isFinite ? JSONValue.number($0) : nil } ?? .string(text)
        case "boolean":
            return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        default:
            return .string(text)
        }
    }
}
