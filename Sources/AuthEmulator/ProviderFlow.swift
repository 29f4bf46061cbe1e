import AuthBase
import Foundation

/// The browser half of an OAuth sign-in: the fake providers' pages and the backend callback that
/// turns their answer into a one-time grant on the app's redirect URL.
extension Emulator {
    static let rememberedAccountCookie = "idp_last_email"

    // MARK: fake providers

    func showProviderPage(_ provider: ProviderPages.Provider, _ request: EmulatorRequest) -> EmulatorResponse {
        let query = request.query
        return renderChooser(provider, request, fields: query, selectAccount: query["prompt"] == "select_account")
    }

    /// Google's form comes back here: a choice becomes a code on the callback, Cancel an error.
    func submitGooglePage(_ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        guard let redirectUri = form["redirect_uri"], environment(forCallback: redirectUri) != nil,
              let state = form["state"], !state.isEmpty else {
            return .html(400, Html.errorPage(title: "Invalid request", message: "The sign-in request is missing its redirect_uri or state. Start the sign-in again from the app."))
        }
        if form["action"] != "continue" {
            return .redirect(to: FormEncoding.appendingQuery(redirectUri, [("error", "access_denied"), ("state", state)]))
        }
        guard let email = chosenEmail(form) else {
            return renderChooser(.google, request, fields: form, selectAccount: true,
                                 error: "Choose an account or type an email address.", status: 400)
        }
        let code = google.issueCode(email: email, now: now)
        var response = EmulatorResponse.redirect(to: FormEncoding.appendingQuery(redirectUri, [("code", code), ("state", state)]))
        response.headers.append(("Set-Cookie", rememberCookie(email, provider: .google)))
        return response
    }

    private func renderChooser(_ provider: ProviderPages.Provider, _ request: EmulatorRequest, fields: [String: String],
                               selectAccount: Bool, error: String? = nil, status: Int = 200) -> EmulatorResponse {
        guard let redirectUri = fields["redirect_uri"], let environment = environment(forCallback: redirectUri) else {
            return .html(400, Html.errorPage(title: "redirect_uri not registered",
                                             message: "This sign-in request does not come from the emulator's Portal callback. Start the sign-in again from the app."))
        }
        guard let state = fields["state"], !state.isEmpty else {
            return .html(400, Html.errorPage(title: "Missing state", message: "The sign-in request has no state. Start the sign-in again from the app."))
        }
        var accounts = environment.users.map { (email: $0.email, name: $0.name) }
        let remembered = request.cookie(Self.rememberedAccountCookie).map(Emails.normalize).flatMap { Emails.isPlausible($0) ? $0 : nil }
        if let remembered, !accounts.contains(where: { $0.email == remembered }) {
            accounts.append((email: remembered, name: ""))
        }
        var hidden: [(String, String)] = [("state", state)]
        if provider == .google {
            hidden = [("client_id", fields["client_id"] ?? ""), ("redirect_uri", redirectUri), ("state", state)]
        }
        let chooser = ProviderPages.Chooser(
            provider: provider,
            formAction: provider == .google ? "\(baseURL)/idp/google/authorize" : redirectUri,
            hiddenFields: hidden,
            accounts: accounts,
            selectedEmail: selectAccount ? nil : remembered,
            typedEmail: fields["custom_email"] ?? "",
            errorMessage: error)
        return .html(status, ProviderPages.chooser(chooser))
    }

    /// The typed address wins over a picked one; nil when neither is a plausible address.
    func chosenEmail(_ form: [String: String]) -> String? {
        let typed = Emails.normalize(form["custom_email"] ?? "")
        let email = typed.isEmpty ? Emails.normalize(form["email"] ?? "") : typed
        return Emails.isPlausible(email) ? email : nil
    }

    func rememberCookie(_ email: String, provider: ProviderPages.Provider) -> String {
        "\(Self.rememberedAccountCookie)=\(JavaURLEncoder.encode(email)); Path=/idp/\(provider.rawValue); HttpOnly; SameSite=Lax; Max-Age=2592000"
    }

    // MARK: the backend callback

    /// Google returns here by GET with `code` and `state` (or `error`).
    func googleCallback(environmentId: String, _ request: EmulatorRequest) -> EmulatorResponse {
        let query = request.query
        return completeCallback(environmentId: environmentId, state: query["state"], provider: .google) {
            guard query["error"] == nil, let code = query["code"] else { return nil }
            return self.google.redeem(code: code, now: self.now)
        }
    }

    /// Apple's page posts here (response_mode=form_post). The emulator plays Apple's side too: the chosen
    /// account becomes a `sub`, plus the `user` JSON with the email on first consent only.
    func appleCallback(environmentId: String, _ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        if form["action"] == "continue", chosenEmail(form) == nil, let state = form["state"],
           let pending = oauthStates.lookup(state), !pending.used {
            // A form mistake, not a failed sign-in: show Apple's page again, the state stays usable.
            var fields = form
            fields["redirect_uri"] = callbackURL(environmentId: environmentId)
            return renderChooser(.apple, request, fields: fields, selectAccount: true,
                                 error: "Choose an account or type an email address.", status: 400)
        }
        var appleIdEmail: String?
        let response = completeCallback(environmentId: environmentId, state: form["state"], provider: .apple) {
            guard form["action"] == "continue", let email = self.chosenEmail(form) else { return nil }
            appleIdEmail = email
            let assertion = self.apple.authorize(appleIdEmail: email, shareEmail: form["share"] != "hide",
                                                 environmentId: environmentId)
            return self.appleEndUserEmail(assertion, environmentId: environmentId)
        }
        guard let appleIdEmail else { return response }
        var remembered = response
        remembered.headers.append(("Set-Cookie", rememberCookie(appleIdEmail, provider: .apple)))
        return remembered
    }

    /// What a backend does with Apple's form_post: the `user` email at first consent, else the recorded `sub`.
    private func appleEndUserEmail(_ assertion: FakeApple.Assertion, environmentId: String) -> String? {
        let email: String?
        if let userJSON = assertion.userJSON,
           let shared = JSON.object(from: Data(userJSON.utf8))?["email"] as? String {
            appleSubjects.record(environmentId: environmentId, sub: assertion.sub, email: shared)
            email = shared
        } else {
            email = appleSubjects.email(environmentId: environmentId, sub: assertion.sub)
        }
        appleSubjects.received(.init(environmentId: environmentId, sub: assertion.sub,
                                     emailInForm: assertion.userJSON != nil, endUserEmail: email))
        return email
    }

    /// Spends the state, then redirects to the app with a grant, or with `error=oauth_failed` when the
    /// provider step failed or the state was already used; an unknown state gets a 400 page.
    private func completeCallback(environmentId: String, state: String?, provider: ProviderPages.Provider,
                                  resolveEmail: () -> String?) -> EmulatorResponse {
        guard let state, let pending = oauthStates.lookup(state) else {
            return .html(400, Html.errorPage(title: "Sign-in expired or unknown",
                                             message: "This sign-in link is not known to the emulator (it may have been reset). Start the sign-in again from the app."))
        }
        let failure = EmulatorResponse.redirect(to: FormEncoding.appendingQuery(pending.redirectUrl, [(PortalWire.RedirectQuery.error, "oauth_failed")]))
        guard oauthStates.consume(pending, now: now), pending.environmentId == environmentId,
              let environment = config.environment(environmentId),
              let authMethod = provider.portalAuthMethod, environment.authMethods.contains(authMethod),
              let email = resolveEmail() else { return failure }
        let user = users.findOrCreate(environmentId: environmentId, email: email)
        let grant = grants.issue(environmentId: environmentId, endUserId: user.endUserId,
                                 kind: .oauth(authMethod),
                                 isAccountAbstracted: pending.isAccountAbstracted, now: now)
        return .redirect(to: FormEncoding.appendingQuery(pending.redirectUrl, [(PortalWire.RedirectQuery.token, grant), (PortalWire.RedirectQuery.loginType, authMethod.rawValue)]))
    }
}
