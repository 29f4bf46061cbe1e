import FoundationEssentials
import PortalAuth
import PortalAuthGNOME
import SignInAccounts
import SignInFlow
import TurnkeyAuth

/// The app's words for every failure, in the user's language: what happened and what to do next.
/// The one table of the GUI (Turnkey's part in UserFacingErrors+Turnkey.swift); the errors
/// themselves carry only facts (AppAuth's model). `service` names who could not be reached.
enum UserFacingErrors {
    /// How a browser sign-in of either backend can end, in the same words for both.
    static let cancelled = UserFacingError(message: "", nextStep: .dismiss, kind: .cancelled)
    static var browserUnavailable: UserFacingError {
        UserFacingError(
            message: tr("Your web browser could not be opened. Check that a default browser is set, then try again."), nextStep: .tryAgain)
    }
    static var signInAlreadyRunning: UserFacingError {
        UserFacingError(message: tr("A sign-in is already running. Finish or cancel it first."), nextStep: .dismiss)
    }

    static func describe(_ error: any Error, service: Backend = .portal) -> UserFacingError {
        switch error {
        case let error as UserFacingError:
            return error
        case is CancellationError:
            return cancelled
        case is SessionEndedError:
            return UserFacingError(
                message: tr("Your session has ended. Sign in again to continue."), nextStep: .signInAgain, kind: .sessionEnded)
        case let error as PortalAuthSignInError:
            return describe(error)
        case let error as PortalAuthError:
            return describe(error)
        case let error as PortalRequestsError:
            return describe(error)
        case let error as PortalCredentialError where error.requiresReauthentication:
            return UserFacingError(
                message: tr("Your session has ended. Sign in again to continue."), nextStep: .signInAgain, kind: .sessionEnded)
        case let error as LoopbackListenError:
            return describe(error)
        case let error as TransportError:
            return describe(error, service: service)
        case let error as TurnkeyAuthError:
            return describe(error)
        case let error as TurnkeyRequestError:
            return describe(error)
        case let error as TurnkeySignInError:
            return describe(error)
        case let error as RefusedSignInLinkError:
            return describe(error)
        case let error as TwoFactorCodeError:
            return describe(error)
        case let error as SignOutError:
            guard let failure = storeFailure(in: error.underlying) else { return describe(error.underlying, service: service) }
            return UserFacingError(message: removalAdvice(failure), nextStep: .tryAgain)
        case let error as SessionStoreError:
            return UserFacingError(message: keyringAdvice(error), nextStep: .tryAgain, kind: keyringKind(error))
        case is KeyringUnavailableError:
            return UserFacingError(message: keyringAdvice(SessionStoreError(.noService)), nextStep: .tryAgain, kind: .keyringMissing)
        case is SchemeHandlerError:
            return UserFacingError(
                message: tr("Portal Sign-In could not make itself the handler of sign-in links. Reinstall the app, then try again."),
                nextStep: .dismiss)
        default:
            return UserFacingError(message: tr("Something unexpected went wrong. Try again."), nextStep: .tryAgain)
        }
    }

    private static func describe(_ error: PortalAuthSignInError) -> UserFacingError {
        switch error {
        case .closed: return cancelled
        case .unavailable: return browserUnavailable
        case .signInInProgress: return signInAlreadyRunning
        case .callbackIncomplete:
            return UserFacingError(
                message: tr("The browser came back without a sign-in result for this app. Try again."), nextStep: .tryAgain)
        }
    }

    private static func describe(_ error: TwoFactorCodeError) -> UserFacingError {
        switch error {
        case .wrongCode:
            return UserFacingError(
                message: tr("That code is not right. Check your authenticator app and enter the current code."),
                nextStep: .dismiss, kind: .wrongCode)
        case .tooManyCodes:
            return UserFacingError(
                message: tr("Too many wrong codes. Start the sign-in again."), nextStep: .signInAgain, kind: .tooManyCodes)
        }
    }

    private static func describe(_ error: LoopbackListenError) -> UserFacingError {
        switch error {
        case .portInUse(let port):
            return UserFacingError(
                message: fill(
                    tr(
                        "Another program is using port %s on this computer, where the sign-in would come back, so it did not start and nothing was sent. Close that program, then try again."
                    ), String(port)), nextStep: .tryAgain)
        case .cannotListen(let port, _):
            return UserFacingError(
                message: fill(
                    tr(
                        "Port %s on this computer could not be opened for the sign-in to come back to. Check the redirect URL in Preferences."
                    ), String(port)), nextStep: .dismiss)
        case .interfered(let port):
            return UserFacingError(
                message: fill(
                    tr(
                        "Something on this computer is interfering with the sign-in on port %s, so it was stopped and nothing was signed in. Try again; if it happens again, restart the app."
                    ), String(port)), nextStep: .tryAgain)
        }
    }

    private static func describe(_ error: PortalAuthError) -> UserFacingError {
        switch error {
        case .authenticationFailed:
            return UserFacingError(
                message: tr("The sign-in was cancelled or refused in the browser. Try again, or choose another way to sign in."),
                nextStep: .tryAgain, kind: .cancelledAtProvider)
        case .rateLimited:
            return UserFacingError(
                message: tr("Too many attempts. Wait a minute, then try again."), nextStep: .tryAgain, kind: .tooManyCodes)
        case .authMethodUnavailable(let method):
            return UserFacingError(
                message: fill(tr("Signing in with %s is not enabled for this service. Choose another way to sign in."), method.displayName),
                nextStep: .dismiss)
        case .magicLinkNotConfigured:
            return UserFacingError(
                message: tr("Sign-in links by email are not set up for this service. Choose another way to sign in."), nextStep: .dismiss)
        case .sessionStorageFailure(let failure):
            return UserFacingError(message: keyringAdvice(failure), nextStep: .tryAgain, kind: keyringKind(failure))
        case .invalidArgument(let name):
            return UserFacingError(
                message: fill(tr("The setting “%s” is not valid. Fix it in Preferences, then restart the app."), name), nextStep: .dismiss)
        case .invalidUserJwt(let check):
            return UserFacingError(message: twoFactorStepUnreadable(check), nextStep: .signInAgain)
        case .unsafeAuthorizeUrl:
            return UserFacingError(
                message: tr(
                    "The sign-in service answered with an address that is not a web page, so nothing was opened. Check the API host in Preferences."
                ), nextStep: .dismiss)
        case .accountAbstractionUnavailable:
            return UserFacingError(
                message: tr("Account abstraction is not available for this service. Turn it off in Preferences, then try again."),
                nextStep: .dismiss)
        case .malformedResponse, .invalidGrantResponse, .totpQrUnavailable:
            return UserFacingError(message: tr("Portal’s answer could not be used. Start the sign-in again."), nextStep: .tryAgain)
        }
    }

    /// Which of the checks on Portal's two-factor token failed (the token itself is never shown).
    private static func twoFactorStepUnreadable(_ check: PortalAuthError.UserJwtCheck) -> String {
        switch check {
        case .shape:
            return tr(
                "Portal’s two-factor step could not be read: its token does not have the three parts of a JWT. Start the sign-in again.")
        case .claimsUnreadable:
            return tr("Portal’s two-factor step could not be read: its token’s claims are empty. Start the sign-in again.")
        case .base64: return tr("Portal’s two-factor step could not be read: its token’s claims are not base64. Start the sign-in again.")
        case .claimsObject:
            return tr("Portal’s two-factor step could not be read: its token’s claims are not a JSON object. Start the sign-in again.")
        case .endUserId:
            return tr("Portal’s two-factor step could not be read: its token names no account (no endUserId). Start the sign-in again.")
        }
    }

    private static func describe(_ error: PortalRequestsError) -> UserFacingError {
        switch error {
        case .unauthorized(let path) where path == PortalWire.Path.oauthUrls:
            // Not an expired link: Portal refuses to start any sign-in for this setup.
            return UserFacingError(
                message: tr(
                    "Portal refused to start the sign-in. The redirect URL may not be allowed for this auth environment, the environment ID may be wrong, or a provider is missing its credentials. Check the settings in Preferences."
                ), nextStep: .dismiss)
        case .unauthorized:
            return UserFacingError(
                message: tr("Portal did not accept the sign-in. The link may have expired or been used already. Sign in again."),
                nextStep: .signInAgain)
        case .internalServerError:
            return UserFacingError(message: tr("Portal had a problem. Try again in a moment."), nextStep: .tryAgain)
        case .clientError, .redirectError, .couldNotParseHttpResponse:
            return UserFacingError(message: tr("Portal rejected the request. Check the settings, then try again."), nextStep: .tryAgain)
        }
    }

    private static func describe(_ error: TransportError, service: Backend) -> UserFacingError {
        switch error.kind {
        case .untrustedCertificate:
            return UserFacingError(
                message: tr(
                    "The connection to the sign-in service is not trusted: its certificate is unknown, expired or for another server. Nothing was sent."
                ), nextStep: .tryAgain)
        case .timedOut:
            return UserFacingError(message: tr("The sign-in service did not answer in time. Try again in a moment."), nextStep: .tryAgain)
        case .cancelled:
            return cancelled
        case .caFileUnreadable:
            return UserFacingError(
                message: tr(
                    "The file of extra certificate authorities could not be read, so nothing was sent. Check its path in the settings."),
                nextStep: .dismiss)
        case .cannotConnect where URLPolicy.isLoopbackHost(hostName(of: error.host)):
            // A service on this computer: the network is not the problem, the program is not running.
            return UserFacingError(
                message: fill(
                    tr(
                        "Nothing answered at %s on this computer. If it is the local test environment, start it (script/run, or portal-auth-emulator), then try again."
                    ), error.host), nextStep: .tryAgain)
        default:
            switch service {
            case .portal:
                return UserFacingError(
                    message: tr("Portal could not be reached. Check your network connection, then try again."), nextStep: .tryAgain)
            case .turnkey:
                return UserFacingError(
                    message: tr("Turnkey could not be reached. Check your network connection, then try again."), nextStep: .tryAgain)
            }
        }
    }

    /// The host of `HOST:PORT` (`[::1]` of `[::1]:8790`), as transport errors name the server.
    private static func hostName(of address: String) -> String {
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") { return String(address[...close]) }
        return String(address.split(separator: ":").first ?? "")
    }

    /// The keyring's failure inside either backend's error, if that is what it was.
    private static func storeFailure(in error: any Error) -> SessionStoreError? {
        switch error {
        case let failure as SessionStoreError: return failure
        case PortalAuthError.sessionStorageFailure(let failure): return failure
        case TurnkeyAuthError.storageFailure(_, let failure): return failure
        default: return nil
        }
    }

    /// The keyring's advice when it would not let a session go: the person is still signed in.
    static func removalAdvice(_ failure: SessionStoreError) -> String {
        switch failure.kind {
        case .locked:
            return tr(
                "You are still signed in: the login keyring is locked, so your session could not be removed from it. Unlock it in Passwords and Keys, then sign out again."
            )
        case .dismissed:
            return tr(
                "You are still signed in: the keyring stayed locked because its unlock prompt was dismissed. Unlock your login keyring, then sign out again."
            )
        case .noService:
            return tr(
                "You are still signed in: no keyring service is running, so your session could not be removed. Start your keyring service (GNOME Keyring, KWallet or KeePassXC), then sign out again."
            )
        case .noCollection, .notKept, .notRemoved, .other:
            return tr(
                "You are still signed in: the keyring could not remove your session. Check it in Passwords and Keys, then sign out again.")
        }
    }

    /// Which keyring failures stop the window until they are resolved (a page of their own).
    static func keyringKind(_ failure: SessionStoreError) -> UserFacingError.Kind {
        switch failure.kind {
        case .noService: return .keyringMissing
        case .locked, .dismissed: return .keyringLocked
        default: return .general
        }
    }

    /// The keyring's own advice: which failure it was decides what the person should do.
    static func keyringAdvice(_ failure: SessionStoreError) -> String {
        switch failure.kind {
        case .noService where FlatpakSandbox.isInside:
            return tr(
                "No keyring is there to keep your session: in its sandbox the app keeps it through the desktop’s Secret portal, and nothing offers one here. Install a Secret portal backend, such as GNOME Keyring’s, then try again."
            )
        case .noService:
            return tr(
                "No keyring service is running, so your session cannot be kept. Install and start one, then try again: GNOME Keyring on GNOME, KWallet (kwalletd) with its Secret Service on KDE, or KeePassXC with Secret Service integration elsewhere."
            )
        case .locked:
            return tr("Your login keyring is locked. Unlock it to use your saved session or to keep a new one.")
        case .notKept:
            return tr(
                "Your session could not be saved because the login keyring is locked. Unlock it in Passwords and Keys, then try again.")
        case .dismissed:
            return tr("The keyring stayed locked because its unlock prompt was dismissed. Unlock it, and enter its password when it asks.")
        case .noCollection:
            return tr("There is no login keyring to keep your session in. Create one in Passwords and Keys, then try again.")
        case .notRemoved:
            return tr("Your session could not be removed from the keyring. Unlock your login keyring, then try again.")
        case .other:
            return tr("The keyring could not keep your session. Check it in Passwords and Keys, then try again.")
        }
    }
}
