import Foundation
import HTTPTypes
import Hummingbird

/// `/` (the phone page) and `/kiosk` (the clock face): until the pages are built, each says plainly what it
/// will be and where the API is. No user data is put in them.
enum Pages {
    static func register(on router: Router<APIContext>) {
        router.get("/") { _, _ in page(title: "Aubade", body: "The phone page comes next. The clock's JSON API is at /api/v1/ (its description: /api/v1/openapi.json).") }
        router.get("/kiosk") { _, _ in page(title: "Aubade kiosk", body: "The kiosk clock face comes next. Its live state is at /api/v1/events.") }
    }

    static func page(title: String, body: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title></head>
            <body><h1>\(title)</h1><p>\(body)</p></body></html>

            """
        var headers = JSONResponse.headers(type: "text/html; charset=utf-8")
        headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'self'; frame-ancestors 'none'"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}
