import CCurl

/// libcurl as linked at run time, for `aubade version` and `doctor`. Each probe calls the library for real; a
/// failure comes back as text, never a crash.
public enum HTTPLibrary {
    public static var curlVersion: String {
        String(cString: curl_version())
    }

    /// Sets a few options on a curl easy handle through the typed shims, proving the variadic wrappers.
    public static func probeCurlOptions() -> String? {
        guard let h = curl_easy_init() else { return "curl_easy_init failed" }
        defer { curl_easy_cleanup(h) }
        let codes = [
            curlx_setopt_long(h, CURLOPT_NOSIGNAL, 1),
            curlx_setopt_str(h, CURLOPT_URL, "http://127.0.0.1:9/"),
            curlx_setopt_long(h, CURLOPT_CONNECTTIMEOUT, 10),
        ]
        if let bad = codes.first(where: { $0 != CURLE_OK }) {
            return "curl_easy_setopt failed: \(String(cString: curl_easy_strerror(bad)))"
        }
        return nil
    }
}
