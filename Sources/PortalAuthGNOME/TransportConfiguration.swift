import AuthBase
import FoundationEssentials

/// How `SoupTransport` talks to a backend, shared by Portal and Turnkey: which extra certificate
/// authority it trusts and how long a request may take. Resolved from (highest first) command-line
/// flags, environment variables, the app's GSettings, then the defaults (`Setting.caFile`,
/// `Setting.httpTimeoutSeconds`). Blank values count as unset.
public struct TransportConfiguration: Sendable, Equatable {
    /// 30 seconds, unless configured. (The table's default is a whole number; its test checks.)
    public static let defaultTimeoutSeconds = UInt32(Setting.httpTimeoutSeconds.defaultValue)!
    /// A sign-in answer is a few hundred bytes; a provider page a few KiB.
    public static let defaultMaxResponseBytes = 1 << 20

    /// A PEM file of certificate authorities trusted *in addition to* the system's, for a
    /// self-hosted or company backend whose certificate a private CA signed. Verification is
    /// never switched off: a certificate must still chain to the system's CAs or to these.
    public var caFile: String?
    /// The whole request (connect, TLS, send, wait, read the answer) must finish within this.
    public var timeoutSeconds: UInt32
    /// A larger answer is refused (`TransportError.responseTooLarge`) without being read to its end.
    public var maxResponseBytes: Int

    /// A configuration; a time or size limit below 1 counts as 1.
    public init(
        caFile: String? = nil, timeoutSeconds: UInt32 = defaultTimeoutSeconds,
        maxResponseBytes: Int = defaultMaxResponseBytes
    ) {
        self.caFile = caFile
        self.timeoutSeconds = max(1, timeoutSeconds)
        self.maxResponseBytes = max(1, maxResponseBytes)
    }

    /// The configuration from (highest first) `flags` (`ca-file`), `environment` (`PORTAL_AUTH_CA_FILE`,
    /// `PORTAL_AUTH_HTTP_TIMEOUT_SECONDS`) and `settings` (the GSettings key `ca-file`), then the
    /// defaults. A timeout that is not a whole number from 1 to 86400 seconds is ignored.
    public static func resolve(
        flags: [String: String], environment: [String: String],
        settings: [String: String]
    ) -> TransportConfiguration {
        let caFile = Setting.caFile.value(flags: flags, environment: environment, settings: settings)
        // A timeout that is not a whole number of seconds from 1 to a day is ignored, not guessed at.
        let timeout = Setting.httpTimeoutSeconds.value(flags: flags, environment: environment, settings: settings)
            .flatMap(UInt32.init).flatMap { (1...86_400).contains($0) ? $0 : nil }
        return TransportConfiguration(caFile: caFile, timeoutSeconds: timeout ?? defaultTimeoutSeconds)
    }
}
