import AubadeApp
import AubadeCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The routes of the public station directory and of podcasts: like every route, each is one input of the running
/// clock (`RunningClock.send`), which asks the directory or reads the feed on a thread of its own.
extension APIRoutes {
    func registerDirectory(_ book: RouteBook) {
        let p = APIRoutes.prefix
        book.add(.get, p + "/directory/search", .read) { request, _ in
            let query = try DirectorySearchParameters.query(request)
            let output: ClockOutput
            do throws(ClockError) { output = try await clock.send(.searchDirectory(query)) } catch { throw APIError(error) }
            guard case .directory(let found) = output else { throw unexpected() }
            return JSONResponse.make(DirectorySearchDocument(found))
        }
        book.add(.post, p + "/stations/from-directory", .change) { _, context in
            let body = try context.decode(Bodies.FromDirectory.self)
            let reply: ClockReply
            do throws(ClockError) {
                reply = try await clock.send(.addFromDirectory(id: body.id, name: body.name)).reply
            } catch {
                throw APIError(error)
            }
            guard case .edited(let result) = reply, case .station(let station) = result.outcome else { throw unexpected() }
            return JSONResponse.make(StationDocument(station), status: .created)
        }
        book.add(.get, p + "/stations/:id/logo", .read) { _, context in
            let id = try context.id()
            let output: ClockOutput
            do throws(ClockError) { output = try await clock.send(.stationLogo(id: id)) } catch {
                throw APIError(error)
            }
            guard case .logo(let logo) = output else { throw unexpected() }
            var headers = HTTPFields()
            headers[.contentType] = logo.mediaType
            // A logo changes only with its station: a day in the browser's cache, checked again after.
            headers[.cacheControl] = "private, max-age=86400"
            headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'none'; sandbox"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: logo.bytes)))
        }
    }

    func registerPodcasts(_ book: RouteBook) {
        let p = APIRoutes.prefix
        book.add(.get, p + "/podcasts", .read) { _, _ in try await answer(.podcasts) }
        book.add(.post, p + "/podcasts", .change) { _, context in
            let body = try context.decode(Bodies.PodcastFeed.self)
            let reply: ClockReply
            do throws(ClockError) {
                reply = try await clock.send(.addPodcast(feed: body.feed, name: body.name)).reply
            } catch {
                throw APIError(error)
            }
            guard case .edited(let result) = reply, case .podcast(let podcast) = result.outcome else { throw unexpected() }
            return JSONResponse.make(PodcastDocument(podcast), status: .created)
        }
        book.add(.delete, p + "/podcasts/:name", .change) { _, context in
            let name = try context.text("name")
            // A name no podcast has is 404 here (the store's edit refuses it as input, as `podcast rm` does).
            _ = try await ask(.query(.podcast(name: name, limit: 1)))
            return try await edit(.removePodcast(name))
        }
        book.add(.get, p + "/podcasts/:name/episodes", .read) { request, context in
            try await answer(
                .podcast(name: try context.text("name"), limit: try RequestReading.number(request, "limit", default: 20)))
        }
    }
}

/// `GET /directory/search`'s query: each parameter refused (400) exactly where the API document refuses it; what
/// the document states only in words (something to search for, a tag that is only spaces) is `DirectoryQuery`'s
/// rule, answered 422 in its sentence.
enum DirectorySearchParameters {
    static func query(_ request: Request) throws(APIError) -> DirectoryQuery {
        let q = request.uri.queryParameters
        let words = q.get("q") ?? ""
        guard words.unicodeScalars.count <= 100 else {
            throw APIError(.invalid, "The search 'q' is \(words.unicodeScalars.count) characters long; at most 100 are allowed.")
        }
        let country = q.get("country")
        if let country,
            !(country.unicodeScalars.count == 2
                && country.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) })
        {
            throw APIError(.invalid, "The parameter 'country' must be a two-letter country code such as DE, not '\(country)'.")
        }
        let tag = try word(q.get("tag"), "tag")
        let codec = try word(q.get("codec"), "codec")
        let limit = try RequestReading.number(request, "limit", default: DirectoryQuery.defaultLimit)
        guard DirectoryQuery.limits.contains(limit) else {
            throw APIError(.invalid, "The parameter 'limit' must be 1 to 100, not \(limit).")
        }
        do {
            return try DirectoryQuery(words: words, country: country, tag: tag, codec: codec, limit: limit)
        } catch {
            throw APIError(.unprocessable, error.message)
        }
    }

    /// A tag or codec: 1 to 40 characters, none of them a control character.
    private static func word(_ text: String?, _ name: String) throws(APIError) -> String? {
        guard let text else { return nil }
        let scalars = text.unicodeScalars
        guard (1...40).contains(scalars.count), !scalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(.invalid, "The parameter '\(name)' must be 1 to 40 characters of plain text.")
        }
        return text
    }
}
