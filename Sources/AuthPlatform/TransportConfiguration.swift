import AuthBase
import FoundationEssentials

/// How `SoupTransport` talks to a backend, shared by Portal and Turnkey: which extra certificate
/// authority it trusts and how long a request may take. Resolved from (highest first) command-line
/// flags, environment variables, the app's GSettings, then the defaults. Blank values count as unset.
///
/// - flags: `ca-file`
/// - environment: `PORTAL_CA_FILE`, `PORTAL_HTTP_TIMEOUT_SECONDS`
/// - settings (GSettings schema io.github.portalauth.SignIn): `ca-file`
public struct TransportConfiguration: Sendable, Equatable {
    public static let defaultTimeoutSeconds: UInt32 = 30
    /// A sign-in answer is a few hundred bytes; a provider page a few KiB.
    public static let defaultMaxResponseBytes = 1 << 20

    /// The GSettings key of the extra CA file.
    public static let caFileSettingsKey = "ca-file"

    /// A PEM file of certificate authorities trusted *in addition to* the system's, for a
    /// self-hosted or company backend whose certificate a private CA signed. Verification is
    /// never switched off: a certificate must still chain to the system's CAs or to these.
    public var caFile: String?
    /// The whole request (connect, TLS, send, wait, read the answer) must finish within this.
    public var timeoutSeconds: UInt32
    /// A larger answer is refused (`TransportError.responseTooLarge`) without being read to its end.
    public var maxResponseBytes: Int

    public init(
        caFile: String? = nil, timeoutSeconds: UInt32 = defaultTimeoutSeconds,
        maxResponseBytes: Int = defaultMaxResponseBytes
    ) {
        self.caFile = caFile
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.maxResponseBytes = max(1, maxResponseBytes)
    }

    public static func resolve(
        flags: [String: String], environment: [String: String],
        settings: [String: String]
    ) -> TransportConfiguration {
        let caFile = [flags["ca-file"], environment["PORTAL_CA_FILE"], settings[caFileSettingsKey]]
            .lazy.compactMap { $0?.nonBlank }.first
        // A timeout that is not a whole number of seconds from 1 to a day is ignored, not guessed at.
        let timeout = environment["PORTAL_HTTP_TIMEOUT_SECONDS"]?.nonBlank.flatMap(UInt32.init)
            .flatMap { (1...86_400).contains($0) ? $0 : nil }
        return TransportConfiguration(caFile: caFile, timeoutSeconds: timeout ?? defaultTimeoutSeconds)
    }
}
