import Foundation

/// A JSON Schema (draft 2020-12, as OpenAPI 3.1 uses it), compiled once from the API document, that says
/// whether a value fits and, when it does not, where and why. It knows the keywords the document uses —
/// types, `enum`/`const`, the object, array, string and number keywords, `allOf`/`anyOf`/`oneOf`/`not`,
/// `if`/`then`/`else`, and `$ref` to `#/components/schemas/…` — and refuses to compile a schema with any
/// other keyword that would constrain a value, so that the document can never say more than is checked.
/// `format`, `contentSchema` and the like are annotations: they describe, they do not refuse (as in
/// 2020-12 by default).
final class JSONSchema: Sendable {
    /// Where a value does not fit: a JSON Pointer into it ("" for the whole) and what is wrong, in words.
    struct Violation: Sendable, Equatable, CustomStringConvertible {
        var pointer: String
        var problem: String
        var description: String { pointer.isEmpty ? problem : "\(pointer): \(problem)" }

        /// The same violation seen from the object or array that holds the value under `name`.
        func inside(_ name: String) -> Violation {
            Violation(pointer: "/" + JSONSchema.escaped(name) + pointer, problem: problem)
        }
    }

    /// A schema the compiler does not take: where in the document, and why.
    struct CompileError: Error, CustomStringConvertible {
        var at: String
        var problem: String
        var description: String { "\(at): \(problem)" }
    }

    /// The named schemas `$ref` points at (`#/components/schemas/<name>`).
    final class Book: Sendable {
        let schemas: [String: JSONSchema]
        init(_ schemas: [String: JSONSchema]) { self.schemas = schemas }
    }

    private let ref: String?
    private let types: Set<String>?
    private let allowed: [JSONValue]?
    private let properties: [(name: String, schema: JSONSchema)]
    private let declared: Set<String>
    private let required: [String]
    private let additional: JSONSchema?
    private let minProperties: Int?
    private let maxProperties: Int?
    private let items: JSONSchema?
    private let minItems: Int?
    private let maxItems: Int?
    private let pattern: (source: String, regex: NSRegularExpression)?
    private let minLength: Int?
    private let maxLength: Int?
    private let minimum: JSONValue?
    private let maximum: JSONValue?
    private let exclusiveMinimum: JSONValue?
    private let exclusiveMaximum: JSONValue?
    private let allOf: [JSONSchema]
    private let anyOf: [JSONSchema]
    private let oneOf: [JSONSchema]
    private let not: JSONSchema?
    private let conditional: (condition: JSONSchema, then: JSONSchema?, otherwise: JSONSchema?)?

    /// Keywords that describe and never refuse.
    private static let annotations: Set<String> = [
        "description", "title", "format", "default", "example", "examples", "deprecated", "readOnly", "writeOnly",
        "contentMediaType", "contentEncoding", "contentSchema", "$comment",
    ]

    /// Compiles `value` (a schema object, or `true`/`false`: `{}` and `{"not": {}}`); `at` names where it is, for
    /// the error.
    convenience init(_ value: JSONValue, at: String) throws(CompileError) {
        switch value {
        case .bool(let accepts): try self.init(keywords: accepts ? [:] : ["not": .object([:])], at: at)
        case .object(let keywords): try self.init(keywords: keywords, at: at)
        default: throw CompileError(at: at, problem: "a schema must be an object")
        }
    }

    private init(keywords: [String: JSONValue], at: String) throws(CompileError) {
        var reader = KeywordReader(keywords: keywords, at: at)
        if let ref = try reader.string("$ref") {
            let prefix = "#/components/schemas/"
            guard ref.hasPrefix(prefix) else { throw CompileError(at: at, problem: "$ref \(ref) is not a named schema") }
            self.ref = String(ref.dropFirst(prefix.count))
        } else {
            self.ref = nil
        }
        types = try reader.types()
        allowed = try reader.values("enum") ?? reader.value("const").map { [$0] }
        properties = try reader.schemaMap("properties").sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        declared = Set(properties.map(\.name))
        required = try reader.strings("required") ?? []
        additional = try reader.schema("additionalProperties")
        minProperties = try reader.count("minProperties")
        maxProperties = try reader.count("maxProperties")
        items = try reader.schema("items")
        minItems = try reader.count("minItems")
        maxItems = try reader.count("maxItems")
        pattern = try reader.pattern()
        minLength = try reader.count("minLength")
        maxLength = try reader.count("maxLength")
        minimum = try reader.number("minimum")
        maximum = try reader.number("maximum")
        exclusiveMinimum = try reader.number("exclusiveMinimum")
        exclusiveMaximum = try reader.number("exclusiveMaximum")
        allOf = try reader.schemas("allOf") ?? []
        anyOf = try reader.schemas("anyOf") ?? []
        oneOf = try reader.schemas("oneOf") ?? []
        not = try reader.schema("not")
        if let condition = try reader.schema("if") {
            conditional = (condition, try reader.schema("then"), try reader.schema("else"))
        } else {
            conditional = nil
        }
        let unknown = reader.unread.subtracting(JSONSchema.annotations)
        if let keyword = unknown.sorted().first {
            throw CompileError(at: at, problem: "the keyword \(keyword) is not checked by this validator")
        }
    }

    /// Every `$ref` this schema and those inside it make.
    var references: [String] {
        var out = ref.map { [$0] } ?? []
        var inner = properties.map(\.schema) + allOf + anyOf + oneOf
        inner += [additional, items, not, conditional?.condition, conditional?.then, conditional?.otherwise].compactMap { $0 }
        for schema in inner { out += schema.references }
        return out
    }

    /// The first place where `value` does not fit, or nil when it fits.
    func violation(of value: JSONValue, in book: Book) -> Violation? {
        if let ref {
            guard let target = book.schemas[ref] else {
                return Violation(pointer: "", problem: "refers to the schema \(ref), which the document lacks")
            }
            if let found = target.violation(of: value, in: book) { return found }
        }
        if let types, !types.contains(value.typeName), !(value.typeName == "integer" && types.contains("number")) {
            return Violation(
                pointer: "", problem: "must be \(types.sorted().joined(separator: " or ")), not \(value.typeName)")
        }
        if let allowed, !allowed.contains(where: { $0.isSame(as: value) }) {
            return Violation(pointer: "", problem: "must be one of the values the document lists")
        }
        switch value {
        case .object(let members): if let found = objectViolation(members, book) { return found }
        case .array(let elements): if let found = arrayViolation(elements, book) { return found }
        case .string(let text): if let found = stringViolation(text) { return found }
        case .integer, .number: if let found = numberViolation(value) { return found }
        case .null, .bool: break
        }
        return combinedViolation(value, book)
    }

    private func objectViolation(_ members: [String: JSONValue], _ book: Book) -> Violation? {
        if let name = required.first(where: { members[$0] == nil }) {
            return Violation(pointer: "", problem: "lacks the required member \"\(name)\"")
        }
        if let minProperties, members.count < minProperties {
            return Violation(pointer: "", problem: "must have at least \(minProperties) member(s)")
        }
        if let maxProperties, members.count > maxProperties {
            return Violation(pointer: "", problem: "must have at most \(maxProperties) member(s)")
        }
        // The declared members in their (sorted) order, then the others, so the first violation is always the same.
        var seen = 0
        for (name, schema) in properties {
            guard let member = members[name] else { continue }
            seen += 1
            if let found = schema.violation(of: member, in: book) { return found.inside(name) }
        }
        guard let additional, members.count > seen else { return nil }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) where !declared.contains(name) {
            if let found = additional.violation(of: member, in: book) { return found.inside(name) }
        }
        return nil
    }

    private func arrayViolation(_ elements: [JSONValue], _ book: Book) -> Violation? {
        if let minItems, elements.count < minItems {
            return Violation(pointer: "", problem: "must have at least \(minItems) item(s)")
        }
        if let maxItems, elements.count > maxItems {
            return Violation(pointer: "", problem: "must have at most \(maxItems) item(s)")
        }
        guard let items else { return nil }
        for (index, element) in elements.enumerated() {
            if let found = items.violation(of: element, in: book) { return found.inside(String(index)) }
        }
        return nil
    }

    private func stringViolation(_ text: String) -> Violation? {
        // JSON Schema counts code points.
        let length = text.unicodeScalars.count
        if let minLength, length < minLength {
            return Violation(pointer: "", problem: "must be at least \(minLength) character(s) long")
        }
        if let maxLength, length > maxLength {
            return Violation(pointer: "", problem: "must be at most \(maxLength) character(s) long")
        }
        if let pattern {
            let range = NSRange(text.startIndex..., in: text)
            if pattern.regex.firstMatch(in: text, range: range) == nil {
                return Violation(pointer: "", problem: "does not match \(pattern.source)")
            }
        }
        return nil
    }

    private func numberViolation(_ value: JSONValue) -> Violation? {
        let bounds: [(JSONValue?, Set<Int>, String)] = [
            (minimum, [0, 1], "at least"), (maximum, [-1, 0], "at most"),
            (exclusiveMinimum, [1], "more than"), (exclusiveMaximum, [-1], "less than"),
        ]
        for (bound, accepted, words) in bounds {
            guard let bound, let order = JSONValue.compare(value, bound) else { continue }
            if !accepted.contains(order) { return Violation(pointer: "", problem: "must be \(words) \(bound.written)") }
        }
        return nil
    }

    private func combinedViolation(_ value: JSONValue, _ book: Book) -> Violation? {
        for schema in allOf {
            if let found = schema.violation(of: value, in: book) { return found }
        }
        if !anyOf.isEmpty {
            let failures = anyOf.compactMap { $0.violation(of: value, in: book) }
            if failures.count == anyOf.count {
                return failures.count == 1
                    ? failures[0] : Violation(pointer: "", problem: "fits none of \(anyOf.count) allowed forms")
            }
        }
        if !oneOf.isEmpty {
            let fits = oneOf.filter { $0.violation(of: value, in: book) == nil }.count
            if fits != 1 {
                return Violation(pointer: "", problem: "must fit exactly one of \(oneOf.count) forms, fits \(fits)")
            }
        }
        if let not, not.violation(of: value, in: book) == nil {
            return Violation(pointer: "", problem: "is a form the document rules out")
        }
        if let conditional {
            let branch =
                conditional.condition.violation(of: value, in: book) == nil
                ? conditional.then : conditional.otherwise
            if let found = branch?.violation(of: value, in: book) { return found }
        }
        return nil
    }

    /// A member's name as a JSON Pointer token (RFC 6901).
    static func escaped(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

extension JSONValue {
    /// A number as it would be written.
    fileprivate var written: String {
        switch self {
        case .integer(let n): String(n)
        case .number(let n): String(n)
        default: typeName
        }
    }
}

/// Reads a schema object's keywords, remembering which were read, so that the compiler can refuse the rest.
private struct KeywordReader {
    let keywords: [String: JSONValue]
    let at: String
    private(set) var unread: Set<String>

    init(keywords: [String: JSONValue], at: String) {
        self.keywords = keywords
        self.at = at
        unread = Set(keywords.keys)
    }

    private mutating func take(_ key: String) -> JSONValue? {
        unread.remove(key)
        return keywords[key]
    }

    private func wrong(_ key: String, _ what: String) -> JSONSchema.CompileError {
        JSONSchema.CompileError(at: at, problem: "\(key) must be \(what)")
    }

    mutating func value(_ key: String) -> JSONValue? { take(key) }

    mutating func string(_ key: String) throws(JSONSchema.CompileError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let text) = value else { throw wrong(key, "a string") }
        return text
    }

    mutating func strings(_ key: String) throws(JSONSchema.CompileError) -> [String]? {
        guard let value = take(key) else { return nil }
        guard case .array(let items) = value else { throw wrong(key, "an array of strings") }
        var out: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw wrong(key, "an array of strings") }
            out.append(text)
        }
        return out
    }

    mutating func values(_ key: String) throws(JSONSchema.CompileError) -> [JSONValue]? {
        guard let value = take(key) else { return nil }
        guard case .array(let items) = value else { throw wrong(key, "an array") }
        return items
    }

    mutating func types() throws(JSONSchema.CompileError) -> Set<String>? {
        let known: Set<String> = ["null", "boolean", "integer", "number", "string", "array", "object"]
        guard let value = take("type") else { return nil }
        let names: [String]
        switch value {
        case .string(let name): names = [name]
        case .array(let items): names = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
        default: throw wrong("type", "a type name or a list of them")
        }
        guard !names.isEmpty, names.allSatisfy(known.contains) else { throw wrong("type", "JSON Schema's type names") }
        return Set(names)
    }

    mutating func count(_ key: String) throws(JSONSchema.CompileError) -> Int? {
        guard let value = take(key) else { return nil }
        guard case .integer(let n) = value, n >= 0, let count = Int(exactly: n) else { throw wrong(key, "a whole number") }
        return count
    }

    mutating func number(_ key: String) throws(JSONSchema.CompileError) -> JSONValue? {
        guard let value = take(key) else { return nil }
        switch value {
        case .integer, .number: return value
        default: throw wrong(key, "a number")
        }
    }

    mutating func pattern() throws(JSONSchema.CompileError) -> (source: String, regex: NSRegularExpression)? {
        guard let source = try string("pattern") else { return nil }
        guard let regex = try? NSRegularExpression(pattern: source) else { throw wrong("pattern", "a regular expression") }
        return (source, regex)
    }

    mutating func schema(_ key: String) throws(JSONSchema.CompileError) -> JSONSchema? {
        guard let value = take(key) else { return nil }
        return try JSONSchema(value, at: "\(at)/\(key)")
    }

    mutating func schemas(_ key: String) throws(JSONSchema.CompileError) -> [JSONSchema]? {
        guard let value = take(key) else { return nil }
        guard case .array(let items) = value, !items.isEmpty else { throw wrong(key, "a non-empty array of schemas") }
        var out: [JSONSchema] = []
        for (index, item) in items.enumerated() { out.append(try JSONSchema(item, at: "\(at)/\(key)/\(index)")) }
        return out
    }

    mutating func schemaMap(_ key: String) throws(JSONSchema.CompileError) -> [String: JSONSchema] {
        guard let value = take(key) else { return [:] }
        guard case .object(let members) = value else { throw wrong(key, "an object of schemas") }
        var out: [String: JSONSchema] = [:]
        for (name, member) in members {
            out[name] = try JSONSchema(member, at: "\(at)/\(key)/\(JSONSchema.escaped(name))")
        }
        return out
    }
}
