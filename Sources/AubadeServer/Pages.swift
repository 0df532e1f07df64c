import Foundation
import HTTPTypes
import Hummingbird

/// The clock's two pages and the few files they load, compiled into the binary from `Resources/pages` (SwiftPM's
/// `embedInCode`, so an installed `aubade` needs no resource folder beside it):
/// `/` is the phone page, `/kiosk` the clock face for the bedside touchscreen, `/assets/<name>` their scripts,
/// style sheets and icon. HTML, CSS and plain JavaScript — no build step, nothing fetched from elsewhere.
///
/// Every file is in a fixed table made once, when the router is made: a request names an entry of the table
/// or gets 404, so no file-system path is ever built from a request. Each answer carries:
/// - `Content-Security-Policy: default-src 'self'; img-src 'self' blob: http: https:; frame-ancestors 'none'` — only these files' own
///   scripts and styles run (no inline script, no inline style, no other site), and no other site may frame a page
///   (R31); images may also come from elsewhere — the logos of the directory's search results are on the
///   stations' own sites (an image runs no script);
/// - `Cache-Control: no-cache` — a browser asks again each time, so the kiosk gets a new clock's pages at its
///   next load;
/// - `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`.
///
/// The pages hold no data: they read and change the clock through the API with a device token (R30) and put
/// every user string in with `textContent`, never as markup (R31).
enum Pages {
    /// One file as served.
    struct Asset: Sendable {
        let body: Data
        let type: String
    }

    /// The pages' paths and the files they serve.
    static let pages = ["/": "phone.html", "/kiosk": "kiosk.html"]

    /// The content type of each kind of file served.
    static let types = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "json": "application/json; charset=utf-8",
    ]

    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' blob: http: https:; frame-ancestors 'none'"

    /// The pages' routes, each under the `.page` rule (they hold no data).
    static func register(in book: RouteBook) {
        let assets = load()
        for (path, name) in pages {
            book.add(.get, path, .page) { _, _ in try respond(assets, name) }
        }
        book.add(.get, "/assets/:name", .page) { _, context in
            try respond(assets, context.parameters.get("name") ?? "", onlyAssets: true)
        }
    }

    /// The answer for the file `name`: 404 for a name not in the table (or a page's HTML asked for as an asset).
    static func respond(_ assets: [String: Asset], _ name: String, onlyAssets: Bool = false) throws(APIError) -> Response {
        guard let asset = assets[name], !(onlyAssets && name.hasSuffix(".html")) else {
            throw APIError(.notFound, "There is no page file '\(name)'.")
        }
        var headers = HTTPFields()
        headers[.contentType] = asset.type
        headers[.cacheControl] = "no-cache"
        headers[HTTPField.Name("Content-Security-Policy")!] = contentSecurityPolicy
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.body)))
    }

    /// Every file of `Resources/pages`, by its name (the folder is flat). `PagesTests` holds this list against
    /// the folder, so a file added there and forgotten here fails a test.
    static let files: [(name: String, bytes: [UInt8])] = [
        ("phone.html", PackageResources.phone_html), ("phone.css", PackageResources.phone_css),
        ("phone.js", PackageResources.phone_js), ("kiosk.html", PackageResources.kiosk_html),
        ("kiosk.css", PackageResources.kiosk_css), ("kiosk.js", PackageResources.kiosk_js),
        ("api.js", PackageResources.api_js), ("icon.svg", PackageResources.icon_svg),
    ]

    static func load() -> [String: Asset] {
        var assets: [String: Asset] = [:]
        for (name, bytes) in files {
            let ext = (name as NSString).pathExtension.lowercased()
            guard let type = types[ext] else { continue }
            assets[name] = Asset(body: Data(bytes), type: type)
        }
        return assets
    }
}
