import PortalAuthGNOME

/// What every part of the emulator shares: where it listens, its clock and its signing keys.
/// All access happens on the GLib main loop thread, one request at a time.
final class EmulatorContext {
    /// `http://127.0.0.1:PORT`, known once the server listens; authorize and callback URLs are built from it.
    var baseURL = "http://127.0.0.1:8790"
    let clock = EmulatorClock()
    let libcrypto = LibcryptoProvider()
    /// The signing keys of the fake providers and of Turnkey; kept across resets.
    let tokens: OIDCTokens

    /// Throws only when libcrypto cannot make the signing keys.
    init() throws { tokens = try OIDCTokens(libcrypto: libcrypto) }

    var now: Int { clock.unixSeconds }

    /// The port `baseURL` names.
    var port: String { baseURL.split(separator: ":").last.map(String.init) ?? "" }
}
