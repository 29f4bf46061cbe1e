import AuthBase
import Foundation

/// The fake providers' pages for Turnkey's apps (contract §3 and §5). A request whose `client_id` is
/// a Turnkey app's is Turnkey's; any other Google or Apple request is Portal's (PortalClientPages.swift).
/// - Google and Apple answer with an `id_token` the emulator signs, carrying the nonce asked for (and
///   a `tknonce` when the request adds one, as an identity service that copies custom parameters
///   into its tokens does: Turnkey accepts the key's nonce in either claim);
/// - Discord and X answer with a code bound to the client, the redirect URI and the PKCE challenge.
/// Where the real provider answers in a fragment, these answer in the query.
extension IdentityProviders {
    func isTurnkeyClient(_ provider: IdentityProvider, _ fields: [String: String]) -> Bool {
        turnkeyApps.registeredClient(provider, clientId: fields["client_id"] ?? "") != nil
    }

    /// The redirect URIs registered for an app; "/…" ones are on this emulator.
    func allowedRedirectUris(_ client: TurnkeyConfig.OAuthClient) -> [String] {
        client.redirectUris.map { $0.hasPrefix("/") ? baseURL + $0 : $0 }
    }

    func showTurnkeyAppPage(_ provider: IdentityProvider, _ request: EmulatorRequest) -> EmulatorResponse {
        let fields = request.query
        do {
            let authorization = try turnkeyAuthorization(provider, fields)
            return turnkeyChooser(authorization, request, typedEmail: "", selectAccount: fields["prompt"] == "select_account")
        } catch {
            return error.response
        }
    }

    /// The page's form: Cancel is `error=access_denied`, Continue an `id_token` or a code.
    func submitTurnkeyAppPage(_ provider: IdentityProvider, _ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        let authorization: TurnkeyAuthorization
        do {
            authorization = try turnkeyAuthorization(provider, form)
        } catch {
            return error.response
        }
        if form["action"] != "continue" {
            return .redirect(to: authorization.redirect([("error", "access_denied")]))
        }
        guard let email = chosenEmail(form) else {
            return turnkeyChooser(
                authorization, request, typedEmail: form["custom_email"] ?? "", selectAccount: true,
                error: "Choose an account or type an email address.", status: 400)
        }
        let answer: (String, String)
        if provider.issuesIdTokens {
            guard let idToken = try? mintIdToken(authorization, email: email, hideEmail: form["share"] == "hide") else {
                return .html(500, Html.errorPage(title: "Could not sign the token", message: "The emulator's key did not sign. Try again."))
            }
            answer = ("id_token", idToken)
        } else {
            answer = (
                "code",
                oauth2Codes.issue(
                    provider: provider, clientId: authorization.clientId,
                    redirectUri: authorization.redirectUri,
                    codeChallenge: authorization.codeChallenge, email: email)
            )
        }
        var response = EmulatorResponse.redirect(to: authorization.redirect([answer]))
        response.headers.append(("Set-Cookie", rememberCookie(email, provider: provider)))
        return response
    }

    // MARK: the request

    /// A checked authorization request: the fields the page keeps in its form.
    struct TurnkeyAuthorization {
        let provider: IdentityProvider
        let clientId: String
        let redirectUri: String
        /// Optional, as at the real providers; echoed when given.
        let state: String?
        let nonce: String
        /// Optional; copied into the token when given.
        let tknonce: String?
        let codeChallenge: String
        let scope: String
        let formFields: [(String, String)]

        /// `redirectUri` with `items` and the state added to its query.
        func redirect(_ items: [(String, String)]) -> String {
            FormEncoding.appendingQuery(redirectUri, items + (state.map { [("state", $0)] } ?? []))
        }
    }

    /// A refusal before the page: a 400 page when the client or redirect URI is not registered (nothing
    /// is ever sent to an unregistered URI), else a redirect with an OAuth error.
    struct PageRefusal: Error {
        let response: EmulatorResponse
    }

    private func turnkeyAuthorization(_ provider: IdentityProvider, _ fields: [String: String]) throws(PageRefusal) -> TurnkeyAuthorization
    {
        let clientId = fields["client_id"] ?? ""
        guard let registered = turnkeyApps.registeredClient(provider, clientId: clientId) else {
            throw PageRefusal(
                response: .html(
                    400,
                    Html.errorPage(
                        title: "client_id not registered",
                        message:
                            "This \(provider.displayName) sign-in names a client ID the emulator does not know. Check the app's Turnkey configuration."
                    )))
        }
        guard let redirectUri = fields["redirect_uri"], allowedRedirectUris(registered.client).contains(redirectUri) else {
            throw PageRefusal(
                response: .html(
                    400,
                    Html.errorPage(
                        title: "redirect_uri not registered",
                        message:
                            "This \(provider.displayName) sign-in asks to return to an address that is not registered for its client ID.")))
        }
        let state = fields["state"].flatMap { $0.isEmpty ? nil : $0 }
        let responseTypes = (fields["response_type"] ?? "").split(separator: " ").map(String.init)
        var formFields = [("client_id", clientId), ("redirect_uri", redirectUri), ("response_type", responseTypes.joined(separator: " "))]
        if let state { formFields.append(("state", state)) }
        func refuse(_ error: String, _ description: String) -> PageRefusal {
            let location = FormEncoding.appendingQuery(
                redirectUri, [("error", error), ("error_description", description)] + (state.map { [("state", $0)] } ?? []))
            return PageRefusal(response: .redirect(to: location))
        }
        var nonce = ""
        var codeChallenge = ""
        var scope = ""
        var tknonce: String?
        if provider.issuesIdTokens {
            guard responseTypes.contains("id_token") else {
                throw refuse("unsupported_response_type", "response_type must include id_token")
            }
            nonce = fields["nonce"] ?? ""
            guard !nonce.isEmpty else { throw refuse("invalid_request", "nonce is required with response_type id_token") }
            formFields.append(("nonce", nonce))
            tknonce = fields["tknonce"].flatMap { $0.isEmpty ? nil : $0 }
            if let tknonce { formFields.append(("tknonce", tknonce)) }
        } else {
            guard responseTypes == ["code"] else { throw refuse("unsupported_response_type", "response_type must be code") }
            codeChallenge = fields["code_challenge"] ?? ""
            guard PKCECheck.isWellFormed(codeChallenge) else { throw refuse("invalid_request", "code_challenge is required (PKCE)") }
            guard fields["code_challenge_method"] == "S256" else { throw refuse("invalid_request", "code_challenge_method must be S256") }
            scope = fields["scope"] ?? ""
            formFields += [("code_challenge", codeChallenge), ("code_challenge_method", "S256"), ("scope", scope)]
        }
        return TurnkeyAuthorization(
            provider: provider, clientId: clientId, redirectUri: redirectUri, state: state,
            nonce: nonce, tknonce: tknonce, codeChallenge: codeChallenge, scope: scope, formFields: formFields)
    }

    // MARK: the page and the token

    private func turnkeyChooser(
        _ authorization: TurnkeyAuthorization, _ request: EmulatorRequest, typedEmail: String,
        selectAccount: Bool, error: String? = nil, status: Int = 200
    ) -> EmulatorResponse {
        var accounts = turnkeyApps.users.map { (email: $0.email, name: $0.name) }
        let remembered = rememberedAccount(request)
        if let remembered, !accounts.contains(where: { $0.email == remembered }) {
            accounts.append((email: remembered, name: ""))
        }
        let chooser = ProviderPages.Chooser(
            provider: authorization.provider,
            formAction: "\(baseURL)/idp/\(authorization.provider.rawValue)/authorize",
            hiddenFields: authorization.formFields,
            accounts: accounts,
            selectedEmail: selectAccount ? nil : remembered,
            typedEmail: typedEmail,
            errorMessage: error,
            scope: authorization.scope)
        return .html(status, ProviderPages.chooser(chooser))
    }

    /// The provider's OIDC token for the chosen account: issuer, audience = the client ID, a stable
    /// subject, the email (Apple: or its Hide My Email address), 10 minutes, and the nonce (and tknonce) asked for.
    private func mintIdToken(_ authorization: TurnkeyAuthorization, email: String, hideEmail: Bool) throws -> String {
        let provider = authorization.provider
        var claims: [String: Any] = [
            "iss": context.identityProviderIssuer(provider), "aud": authorization.clientId,
            "iat": now, "exp": now + OIDCTokens.lifetimeSeconds, "nonce": authorization.nonce, "email_verified": true
        ]
        if let tknonce = authorization.tknonce { claims["tknonce"] = tknonce }
        if provider == .apple {
            claims["sub"] = apple.subject(appleIdEmail: email)
            claims["email"] = hideEmail ? apple.relayEmail(appleIdEmail: email, app: authorization.clientId) : email
            claims["is_private_email"] = hideEmail
        } else {
            claims["sub"] = ProviderAccounts.numericId(provider, email: email)
            claims["email"] = email
            claims["azp"] = authorization.clientId
            if let name = turnkeyApps.users.first(where: { $0.email == email })?.name, !name.isEmpty { claims["name"] = name }
        }
        return try context.tokens.sign(claims, with: .identityProviders)
    }
}

/// PKCE (RFC 7636) as the fake providers and the Auth Proxy check it.
enum PKCECheck {
    /// 43 to 128 characters of `A-Z a-z 0-9 - . _ ~` (a verifier; an S256 challenge is 43 of them).
    static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count)
            && value.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                    true
                default: false
                }
            }
    }
}
