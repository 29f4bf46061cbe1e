import FoundationEssentials
import SignInFlow
import TurnkeyAuth

/// Turnkey's part of the app's words. The errors carry facts (which field, provider, path); here
/// they become what happened and what to do next.
extension UserFacingErrors {
    static func describe(_ error: TurnkeyAuthError) -> UserFacingError {
        switch error {
        case .invalidConfiguration(let field, _):
            return invalidSetting(settingName(field))
        case .invalidArgument(let name):
            return invalidSetting(settingName(name))
        case .providerNotEnabled(let provider):
            return UserFacingError(
                message: fill(
                    tr("Signing in with %s is not enabled for this service. Choose another way to sign in."), provider.displayName),
                nextStep: .dismiss)
        case .missingClientId(let provider):
            return UserFacingError(
                message: fill(
                    tr(
                        "Signing in with %s is not set up for this Turnkey organization: it has no client ID. Choose another way to sign in."
                    ), provider.displayName), nextStep: .dismiss)
        case .unknownState:
            return describe(RefusedSignInLinkError(method: nil))
        case .signInExpired(let provider):
            return UserFacingError(
                message: fill(tr("The sign-in with %s took more than an hour and has expired. Start it again."), provider.displayName),
                nextStep: .signInAgain)
        case .providerError(let provider, _):
            return UserFacingError(
                message: fill(
                    tr(
                        "%s did not sign you in: the sign-in was cancelled or refused in the browser. Try again, or choose another way to sign in."
                    ), provider.displayName), nextStep: .tryAgain, kind: .cancelledAtProvider)
        case .callbackIncomplete:
            return UserFacingError(
                message: tr("The browser came back without a sign-in result for this app. Try again."), nextStep: .tryAgain)
        case .nonceMismatch:
            return UserFacingError(
                message: tr(
                    "The provider’s answer belongs to another sign-in, so it was not used and nothing was sent. Start the sign-in again."),
                nextStep: .signInAgain)
        case .invalidOidcToken, .malformedResponse, .sessionKeyMismatch:
            return UserFacingError(message: tr("Turnkey’s answer could not be used. Start the sign-in again."), nextStep: .tryAgain)
        case .keyNotFound:
            return UserFacingError(
                message: tr("The key of this sign-in is no longer in your keyring. Start the sign-in again."), nextStep: .signInAgain)
        case .keyAlreadyExists:
            return UserFacingError(
                message: tr("A session is already kept under this name. Sign out of it first, then try again."), nextStep: .dismiss)
        case .sessionNotFound, .sessionExpired:
            return UserFacingError(
                message: tr("Your session has ended. Sign in again to continue."), nextStep: .signInAgain, kind: .sessionEnded)
        case .activityFailed, .activityNotCompleted:
            return UserFacingError(
                message: tr("Turnkey did not renew your session. Sign in again to continue."), nextStep: .signInAgain, kind: .sessionEnded)
        case .storageFailure(_, let failure):
            return UserFacingError(message: keyringAdvice(failure), nextStep: .tryAgain, kind: keyringKind(failure))
        case .cryptoFailure:
            return UserFacingError(message: tr("A key for this sign-in could not be made. Try again."), nextStep: .tryAgain)
        }
    }

    static func describe(_ error: TurnkeyRequestError) -> UserFacingError {
        switch error {
        case .unauthorized(let path, _) where path == TurnkeyWire.AuthProxyPath.walletKitConfig:
            // Nothing can start: the Auth Proxy does not know this configuration.
            return UserFacingError(
                message: tr("Turnkey refused this app’s configuration. Check the Auth Proxy URL and config ID in Preferences."),
                nextStep: .dismiss)
        case .unauthorized(let path, _) where path.hasPrefix("/public/"):
            return UserFacingError(
                message: tr("Your session has ended. Sign in again to continue."), nextStep: .signInAgain, kind: .sessionEnded)
        case .unauthorized:
            return UserFacingError(message: tr("Turnkey did not accept the sign-in. Sign in again."), nextStep: .signInAgain)
        case .rateLimited:
            return UserFacingError(message: tr("Too many attempts. Wait a minute, then try again."), nextStep: .tryAgain)
        case .rejected:
            return UserFacingError(
                message: tr("Turnkey rejected the request. Check the settings in Preferences, then try again."), nextStep: .tryAgain)
        case .serverError:
            return UserFacingError(message: tr("Turnkey had a problem. Try again in a moment."), nextStep: .tryAgain)
        case .unexpectedStatus, .unreadableResponse:
            return UserFacingError(message: tr("Turnkey’s answer could not be used. Start the sign-in again."), nextStep: .tryAgain)
        }
    }

    static func describe(_ error: TurnkeySignInError) -> UserFacingError {
        switch error {
        case .closed: return cancelled
        case .unavailable: return browserUnavailable
        case .signInInProgress: return signInAlreadyRunning
        }
    }

    /// A sign-in link this window did not ask for (another app's, an old one, a forged one).
    static func describe(_ error: RefusedSignInLinkError) -> UserFacingError {
        UserFacingError(
            message: tr(
                "This sign-in link was not started in this window, or it was used already, so it was refused and nothing was sent. To sign in, choose a way to sign in here."
            ), nextStep: .dismiss)
    }

    private static func invalidSetting(_ name: String) -> UserFacingError {
        UserFacingError(
            message: fill(tr("The setting “%s” is not valid. Fix it in Preferences, then restart the app."), name), nextStep: .dismiss)
    }

    /// The Preferences label of a configuration field; an environment-only field keeps its name.
    private static func settingName(_ field: String) -> String {
        switch field {
        case "authProxyUrl": return tr("Auth Proxy URL")
        case "authProxyConfigId": return tr("Auth Proxy config ID")
        case "apiUrl": return tr("API URL")
        case "organizationId": return tr("Organization ID")
        case "defaultSessionKey", "sessionKey": return tr("Session key")
        default: return field
        }
    }
}
