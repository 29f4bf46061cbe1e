import AuthBase

/// Building the URLs the emulator redirects to; parsing is the shared `QueryString`.
enum FormEncoding {
    /// Appends query parameters (Java-style encoded, as Portal does) to a URL that may already carry a query.
    static func appendingQuery(_ url: String, _ items: [(String, String)]) -> String {
        url + (url.contains("?") ? "&" : "?") + JavaURLEncoder.encode(items)
    }
}
