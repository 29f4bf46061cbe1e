import AuthBase
import PortalAuth
import TurnkeyAuth

/// The CLI's words for every failure: what happened and what to do next, in one table. Text that
/// came from outside (a server body, an `error=` value) is shown only after `Terminal.clean`, and
/// never holds a grant, token or JWT (the cores redact those before they reach an error).
enum Messages {
    static let unexpected = "Something unexpected went wrong. Try again."

    /// send-magic-link's word is not an address: said before anything is sent.
    static func notAnEmail(_ text: String) -> String {
        "\(EmailAddress.shown(text)) is not an email address, so no sign-in link was sent. Give the address to send it to, like name@example.com."
    }

    /// The host of `HOST:PORT` (`[::1]` of `[::1]:8790`).
    private static func hostName(of address: String) -> String {
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") { return String(address[...close]) }
        return String(address.split(separator: ":").first ?? "")
    }

    static func text(_ error: PortalAuthError) -> String {
        switch error {
        case .invalidArgument(let name):
            return "The \(name) value is empty or not valid. Check the \(name) setting and try again."
        case .magicLinkNotConfigured:
            return "Sign-in links by email are not set up. Configure a sender address and template, or sign in another way."
        case .authMethodUnavailable(let method):
            return
                "\(method.displayName) sign-in is not enabled for this auth environment. Choose another sign-in method, or enable it in the Portal dashboard."
        case .authenticationFailed(let reason):
            return "The sign-in did not complete (\(Terminal.clean(reason))). Start the sign-in again."
        case .malformedResponse(let path, let missing):
            return "Portal's answer from \(path) had no \(missing). Try again later; if it keeps happening, check the API host setting."
        case .invalidGrantResponse:
            return "Portal accepted the sign-in but returned neither a session nor a two-factor step. Start a new sign-in."
        case .invalidUserJwt(let check):
            let reason: String
            switch check {
            case .shape: reason = "it is not a JWT (header.claims.signature)"
            case .claimsUnreadable: reason = "its claims part is empty or too short to read"
            case .base64: reason = "its claims part is not base64 or base64url"
            case .claimsObject: reason = "its claims are not a JSON object"
            case .endUserId: reason = "its claims carry no endUserId"
            }
            return
                "The userJwt of the two-factor step could not be read: \(reason). Pass the userJwt from the totpRequired line unchanged, or start a new sign-in."
        case .sessionStorageFailure(let failure):
            return "The sign-in session could not be read or saved: " + text(failure)
        case .accountAbstractionUnavailable(let message):
            return
                "Account abstraction is not available for this auth environment (\(Terminal.clean(message))). Turn off account abstraction or enable it in the Portal dashboard."
        case .rateLimited(let seconds):
            let wait = seconds.map { "Wait \($0) seconds" } ?? "Wait a minute"
            return "Portal refused more attempts for now. \(wait), then try again."
        case .totpQrUnavailable:
            return "The two-factor QR code could not be made. Type the secret key into your authenticator app instead."
        case .unsafeAuthorizeUrl(let scheme):
            return
                "Portal answered a sign-in address that is not a web page (\(Terminal.clean(scheme.isEmpty ? "no scheme" : scheme + ":"))), so nothing was opened. Only https addresses, or http to this computer, are opened. Check the API host setting."
        }
    }

    static func text(_ error: PortalRequestsError) -> String {
        switch error {
        case .unauthorized(let path) where path == PortalWire.Path.oauthUrls:
            return "Portal refused to start the sign-in (401). This is a setup problem, not an expired link: "
                + "check that the redirect URL is on the auth environment's allow list, that the auth environment ID is right, "
                + "and that every enabled provider has its credentials in the Portal dashboard."
        case .unauthorized(let path) where path == PortalWire.Path.clientsMe:
            return "Portal no longer accepts this session (401). Sign in again."
        case .unauthorized(let path) where path == PortalWire.Path.totpValidations:
            return
                "Portal did not accept the code (401): it is wrong or was already used, or the two-factor step has expired. Enter the current code from your authenticator app, or start the sign-in again."
        case .unauthorized:
            return
                "Portal refused the sign-in (401): the link may have expired or been used already, or it was issued for another auth environment. Start a new sign-in."
        case .clientError(let status, let detail):
            return "Portal rejected the request (\(status) - \(Terminal.clean(detail))). Check the input and try again."
        case .internalServerError(let status, let detail):
            return "Portal had a server error (\(status) - \(Terminal.clean(detail))). Try again in a moment."
        case .redirectError(let status, _):
            return "Portal answered with an unexpected redirect (\(status)). Check the API host setting."
        case .couldNotParseHttpResponse:
            return "Portal's answer could not be read. Check the API host setting and try again."
        }
    }

    static func text(_ error: PortalCredentialError) -> String {
        switch error {
        case .unavailable: return "No session is available. Sign in first."
        case .providerFailure: return "The session could not be provided. Sign in again."
        case .sessionInvalidated: return "This session has ended. Sign in again."
        case .invalidApiKey: return "The credential is not valid. Sign in again."
        }
    }

    static func text(_ error: PortalAuthSignInError) -> String {
        switch error {
        case .closed: return "The sign-in was cancelled before it finished. Start it again when you are ready."
        case .unavailable:
            return
                "The browser sign-in cannot start: it needs a web browser and a redirect URL with the app's own scheme. Check both, or copy the sign-in link into a browser yourself."
        case .signInInProgress: return "A sign-in is already running. Finish or cancel it first."
        case .callbackIncomplete: return "The browser came back without a sign-in result for this app. Start the sign-in again."
        }
    }

    static func text(_ error: LoopbackListenError) -> String {
        switch error {
        case .portInUse(let port):
            return
                "Another program already uses port \(port) on 127.0.0.1, where the redirect URL sends the sign-in, so it did not start: nothing was sent and no browser opened. Stop that program (ss -ltnp 'sport = :\(port)' shows it) and try again."
        case .cannotListen(let port, let reason):
            return
                "Port \(port) on 127.0.0.1 could not be opened for the redirect (\(Terminal.clean(reason))), so the sign-in did not start. Check the redirect URL's port."
        case .interfered(let port):
            return
                "Connections to port \(port) on 127.0.0.1 could not be accepted (too many open files): something on this computer is interfering with the sign-in, so it was stopped and nothing was exchanged. Try again, or use another port."
        }
    }

    /// `emulator` is the emulator's address when the command ran against it.
    static func text(_ error: TransportError, emulator: String? = nil) -> String {
        let host = Terminal.clean(error.host)
        switch error.kind {
        case .cannotConnect:
            if emulator != nil {
                let port = host.split(separator: ":").last.map(String.init) ?? "PORT"
                return
                    "Nothing answered at \(host): the local test environment (the auth emulator) is not running there. Start it with script/run in the source tree, or run portal-auth-emulator --port \(port), then try again."
            }
            if URLPolicy.isLoopbackHost(hostName(of: error.host)) {
                return
                    "Nothing answered at \(host) on this computer. Check that the server there is running and that the API host setting names it, then try again."
            }
            return "Could not connect to \(host). Check that you are online and that the API host setting is right, then try again."
        case .timedOut: return "\(host) did not answer in time. Try again in a moment."
        case .connectionLost: return "The connection to \(host) closed before an answer arrived. Try again."
        case .cancelled: return "The request to \(host) was cancelled."
        case .untrustedCertificate:
            return
                "The connection to \(host) is not trusted (\(Terminal.clean(error.detail))): its certificate is unknown, expired or for another host. Nothing was sent. If this is your own server, add its CA with --ca-file."
        case .responseTooLarge: return "\(host) sent an answer too large to be a sign-in response. Check the API host setting."
        case .caFileUnreadable:
            return
                "The extra CA file could not be read (\(Terminal.clean(error.detail))), so nothing was sent to \(host). Check --ca-file or PORTAL_AUTH_CA_FILE."
        case .invalidRequest: return "The request to \(host) could not be built, so nothing was sent. Check the API host setting."
        case .other: return "The request to \(host) failed (\(Terminal.clean(error.detail))). Try again."
        }
    }

    static func text(_ error: SessionStoreError) -> String {
        switch error.kind {
        case .noService:
            return
                "No keyring service is running, so nothing was sent: a session could not be kept. Install and start a Secret Service (gnome-keyring on GNOME; KWallet's kwalletd with its Secret Service on KDE; KeePassXC with Secret Service integration elsewhere) and try again."
        case .locked: return "Your login keyring is locked. Unlock it in Passwords and Keys (Seahorse) and try again."
        case .dismissed:
            return
                "The keyring unlock prompt was dismissed, so the keyring stayed locked. Unlock your login keyring in Passwords and Keys (Seahorse) and try again."
        case .noCollection:
            return
                "There is no default keyring to keep the session in. Create a login keyring in Passwords and Keys (Seahorse) and sign in again."
        case .notKept:
            return "The keyring did not keep the session. Unlock your login keyring in Passwords and Keys (Seahorse) and try again."
        case .notRemoved:
            return
                "The keyring did not remove the session. Remove \"Portal Sign-In session\" in Passwords and Keys (Seahorse), or unlock your login keyring and try again."
        case .other:
            return
                "The keyring failed (\(Terminal.clean(error.detail))). Check your keyring in Passwords and Keys (Seahorse) and try again."
        }
    }
}

// MARK: Turnkey

extension Messages {
    static func text(_ error: TurnkeyAuthError) -> String {
        switch error {
        case .invalidConfiguration(let field, let problem):
            let how =
                problem == "notHTTPS"
                ? "must use https (plain http only to localhost or 127.0.0.1)" : "is \(problem == "blank" ? "empty" : "not valid")"
            return "The Turnkey \(field) setting \(how). Check --auth-proxy-url, --api-url and the TURNKEY_* variables."
        case .invalidArgument(let name):
            return "The \(name) value is empty or not valid. Check it and try again."
        case .providerNotEnabled(let provider):
            return
                "\(provider.displayName) sign-in is not enabled for this Auth Proxy config. Choose another provider, or enable it in the Turnkey dashboard."
        case .missingClientId(let provider):
            return
                "There is no \(provider.displayName) client ID: the Auth Proxy config names none. Pass --client-id or add one in the Turnkey dashboard."
        case .unknownState:
            return
                "This redirect does not belong to a sign-in started here (it may be finished, from another device, or forged), so it was refused and nothing was sent. Start a new sign-in with login-url."
        case .signInExpired(let provider):
            return "The \(provider.displayName) sign-in waited more than an hour and has expired. Start it again with login-url."
        case .providerError(let provider, let reason):
            return "\(provider.displayName) ended the sign-in (\(Terminal.clean(reason))). Start it again when you are ready."
        case .callbackIncomplete(let provider, let missing):
            return "The redirect from \(provider.displayName) carried no \(missing). Start the sign-in again."
        case .nonceMismatch:
            return
                "The provider's token was issued for another sign-in key, so it was refused and nothing was sent. Start the sign-in again."
        case .invalidOidcToken:
            return "The OIDC token could not be read. Pass the oidcToken from the handle-redirect --oidc-only line, unchanged."
        case .keyNotFound:
            return
                "The keyring holds no key for that public key: it was never made here or its hour has passed. Start the sign-in again with login-url."
        case .keyAlreadyExists(let sessionKey):
            return
                "A session is already stored under the session key \"\(Terminal.clean(sessionKey))\". Sign out of it first, or choose another --session-key."
        case .sessionNotFound(let sessionKey):
            return "No Turnkey session is stored under \"\(Terminal.clean(sessionKey))\". Sign in first."
        case .sessionExpired(let sessionKey):
            return "The Turnkey session \"\(Terminal.clean(sessionKey))\" has expired and was removed. Sign in again."
        case .malformedResponse(let path, let missing):
            return
                "Turnkey's answer from \(path) had no \(missing). Try again later; if it keeps happening, check the Auth Proxy and API URLs."
        case .sessionKeyMismatch:
            return "Turnkey issued a session for another key than the one this sign-in made, so it was not stored. Start the sign-in again."
        case .activityFailed(let status):
            return "Turnkey did not renew the session (\(Terminal.clean(status))). Sign in again."
        case .activityNotCompleted(let status):
            return "Turnkey has not finished renewing the session yet (\(Terminal.clean(status))). Try refresh again in a moment."
        case .storageFailure(let item, let failure):
            let what = item == .session ? "Turnkey session" : item == .key ? "Turnkey session key" : "pending Turnkey sign-in"
            return "The \(what) could not be read or saved: " + text(failure)
        case .cryptoFailure:
            return "A cryptographic operation failed. Check that OpenSSL's libcrypto is installed, then try again."
        }
    }

    static func text(_ error: TurnkeyRequestError) -> String {
        switch error {
        case .unauthorized(let path, let message) where path.hasPrefix("/public/"):
            return "Turnkey no longer accepts this session (401\(detail(message))). Sign in again."
        case .unauthorized(let path, let message) where path == TurnkeyWire.AuthProxyPath.walletKitConfig:
            return "The Auth Proxy refused the config ID (401\(detail(message))). Check --auth-proxy-config-id."
        case .unauthorized(_, let message):
            return "Turnkey refused the sign-in (401\(detail(message))). Start a new sign-in."
        case .rejected(let status, _, _, let message):
            return "Turnkey rejected the request (\(status)\(detail(message))). Start the sign-in again."
        case .rateLimited(_, let seconds):
            return "Turnkey refused more attempts for now. \(seconds.map { "Wait \($0) seconds" } ?? "Wait a minute"), then try again."
        case .serverError(let status, _, let message):
            return "Turnkey had a server error (\(status)\(detail(message))). Try again in a moment."
        case .unexpectedStatus(let status, _):
            return "Turnkey answered with an unexpected status (\(status)). Check the Auth Proxy and API URLs."
        case .unreadableResponse:
            return "Turnkey's answer could not be read. Check the Auth Proxy and API URLs and try again."
        }
    }

    static func text(_ error: TurnkeySignInError) -> String {
        switch error {
        case .closed: return "The sign-in was cancelled before it finished. Start it again when you are ready."
        case .unavailable: return "The browser sign-in cannot start: it needs a web browser. Open the login-url link in a browser yourself."
        case .signInInProgress: return "A sign-in is already running. Finish or cancel it first."
        }
    }

    private static func detail(_ message: String) -> String {
        message.isEmpty ? "" : " - " + Terminal.clean(message)
    }
}

/// Text from the network or a redirect, made safe to print on a terminal: control characters
/// (escape sequences that could rewrite the screen, bells, line breaks) are dropped.
enum Terminal {
    static func clean(_ text: String) -> String {
        text.withoutControlCharacters
    }
}
