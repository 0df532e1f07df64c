import Foundation
import HTTPTypes
import Hummingbird

/// One spelling per path (R39): the router skips empty segments, so `//api/v1/alarms`, `/api//v1/alarms` and
/// `/api/v1/alarms/` would reach the route of `/api/v1/alarms`. Each route's own guards decide by its rule, not by
/// the path, so such a spelling gets no further than the plain one would; this guard, before the router's routes
/// and every other guard but the error shaper, refuses it outright, so that no spelling of a path means what
/// another spelling means. A path with an empty segment (a doubled or a trailing slash) or a `.` or `..` segment
/// is 404, with the plain spelling in the sentence. Percent-encoding is left as sent: the router compares the
/// path's text as it came, so `/%61pi/v1/alarms` names no route and is 404 by the router itself.
struct PlainPathGuard: RouterMiddleware {
    typealias Context = APIContext

    func handle(_ request: Request, context: APIContext, next: (Request, APIContext) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        guard PlainPathGuard.isPlain(path) else {
            throw APIError(
                .notFound,
                "This clock answers each path in one spelling only, without empty, '.' or '..' segments or a trailing slash; ask for '\(PlainPathGuard.plain(path))'."
            )
        }
        return try await next(request, context)
    }

    /// Whether `path` is in its one spelling: "/" alone, or "/" followed by segments none of which is empty, "."
    /// or "..".
    static func isPlain(_ path: String) -> Bool {
        guard path.hasPrefix("/") else { return false }
        if path == "/" { return true }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }

    /// `path` with its empty and "." segments left out and each ".." taking the segment before it away, as a
    /// browser resolves it (RFC 3986 §5.2.4): what the sender most likely meant.
    static func plain(_ path: String) -> String {
        var kept: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = kept.popLast()
            default: kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/")
    }
}
