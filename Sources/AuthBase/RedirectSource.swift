/// The URIs the desktop hands the app (GApplication `::open`), for a sign-in that waits for its redirect.
public protocol RedirectSource: Sendable {
    /// Starts listening now, before the browser opens, so a fast redirect is not missed.
    /// The stream yields every URI delivered from then on; it ends when the consumer stops iterating.
    func redirects() -> AsyncStream<String>
}
