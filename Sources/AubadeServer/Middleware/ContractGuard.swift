import AubadeApp
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Where the server departed from its document: the operation, the status it answered, and what is wrong.
public struct ContractBreach: Sendable, CustomStringConvertible {
    public let operation: String
    public let status: Int
    public let problem: String
    public var description: String { "\(operation) answered \(status) against the API document: \(problem)" }
}

/// The API document as the one contract: every request to an operation the document describes, and every
/// answer, is held against it, in one place.
///
/// The refusing is the core's: a request goes on to its route whether it fits the document or not, and the
/// route's reading of it (the core's validation, the same for the CLI and the phone page) refuses what is wrong
/// in the core's own sentence — a refusal in a schema validator's words would tell a user "/time does not
/// match ^…$" where the clock says "Alarm time '25:00' is not a valid time". What this guard holds is the
/// meeting of the two, on every request: an answer of 2xx to a request the document refuses, or a 400
/// ("malformed") to one it allows, is a breach — the document and the core have drifted apart — and so is an
/// answer whose status, required headers, media type or JSON body the operation does not declare. A breach is
/// logged as an error and handed to `onBreach`; the tests fail on any (every route test runs through this
/// guard, and so does the fuzzer in `make contract`), so the two cannot drift apart unseen. The event stream's
/// body is not read (it does not end); its status and type are.
///
/// Each route's chain has its own guard, made with the operation its method and path template name in the document
/// (`RouteBook.add`), and the path parameters' values are the router's: what is checked is the route the request
/// reached, however its path was spelled (R39).
struct ContractGuard: RouterMiddleware {
    typealias Context = APIContext
    let contract: APIContract
    let operation: APIContract.Operation
    let onBreach: @Sendable (ContractBreach) -> Void

    /// The guard of the route `method path` (OpenAPI form), or nil when the document has no such operation (the
    /// test that holds the routes against the document fails then).
    init?(contract: APIContract?, method: String, path: String, onBreach: @escaping @Sendable (ContractBreach) -> Void) {
        guard let contract, let operation = contract.operations.first(where: { $0.method == method && $0.path == path })
        else { return nil }
        self.contract = contract
        self.operation = operation
        self.onBreach = onBreach
    }

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        var values: [String: String] = [:]
        for parameter in operation.parameters where parameter.location == .path {
            guard let raw = context.parameters.get(parameter.name) else { continue }
            values[parameter.name] = raw.removingPercentEncoding ?? raw
        }
        let violation = operation.violation(
            values: values, query: request.uri.query, body: Data(context.body.readableBytesView), in: contract.book)
        let answered: Response
        do {
            answered = try await next(request, context)
        } catch let error as APIError {
            judge(error, refused: violation, operation, contract, context)
            throw error
        } catch let failure as PairingFailure {
            judge(failure.error, refused: violation, operation, contract, context)
            throw failure
        } catch {
            report(operation, 500, "the route failed (\(error))", context)
            throw error
        }
        var response = answered
        let mediaType = response.headers[.contentType]?.split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        var body: Data?
        if mediaType == "application/json" {
            let collected = try await ContractGuard.collect(response.body)
            response.body = ResponseBody(byteBuffer: collected)
            body = Data(collected.readableBytesView)
        }
        if let violation, (200..<300).contains(response.status.code) {
            report(operation, response.status.code, "it took a request the document refuses: \(violation)", context)
        }
        if let problem = operation.breach(
            status: response.status.code, mediaType: mediaType, has: { name in has(response.headers, name) }, body: body,
            in: contract.book)
        {
            report(operation, response.status.code, problem, context)
        }
        return response
    }

    /// A refusal against the document: its status and body must be declared, and a 400 for a request the
    /// document allows is a breach (the document must say what the core refuses as malformed; a rule it states
    /// only in words is a 422).
    private func judge(
        _ error: APIError, refused violation: String?, _ operation: APIContract.Operation, _ contract: APIContract,
        _ context: APIContext
    ) {
        let status = error.status.code
        if violation == nil, error.kind == .invalid {
            report(operation, status, "it refused as malformed a request the document allows (\(error.message))", context)
        }
        let body = DocumentJSON.data(error.body)
        var headers = error.headers
        headers[.contentType] = "application/json"
        if let problem = operation.breach(
            status: status, mediaType: "application/json", has: { name in has(headers, name) }, body: body,
            in: contract.book)
        {
            report(operation, status, problem, context)
        }
    }

    private func has(_ headers: HTTPFields, _ name: String) -> Bool {
        HTTPField.Name(name).map { headers[$0] != nil } ?? false
    }

    private func report(_ operation: APIContract.Operation, _ status: Int, _ problem: String, _ context: APIContext) {
        let breach = ContractBreach(operation: operation.name, status: status, problem: problem)
        context.logger.error("\(breach)")
        onBreach(breach)
    }

    /// A whole (small, JSON) response body.
    private static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let box = Collected()
        try await body.write(Collector(box: box))
        return box.buffer
    }

    private final class Collected {
        var buffer = ByteBuffer()
    }

    private struct Collector: ResponseBodyWriter {
        let box: Collected
        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            box.buffer.writeBuffer(&buffer)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
