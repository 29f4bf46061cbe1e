import AuthBase
import Foundation

/// Portal's OAuth callback: it turns the fake Google's code or Apple's form_post into a one-time
/// grant on the app's redirect URL (the providers' pages are in PortalClientPages.swift).
extension PortalBackend {
    /// Google returns here by GET with `code` and `state` (or `error`).
    func googleCallback(environmentId: String, _ request: EmulatorRequest) -> EmulatorResponse {
        let query = request.query
        return completeCallback(environmentId: environmentId, state: query["state"], provider: .google) {
            guard query["error"] == nil, let code = query["code"] else { return nil }
            return self.identityProviders.google.redeem(code: code)
        }
    }

    /// Apple's page posts here (response_mode=form_post). The emulator plays Apple's side too: the chosen
    /// account becomes a `sub`, plus the `user` JSON with the email on first consent only.
    func appleCallback(environmentId: String, _ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        if form["action"] == "continue", identityProviders.chosenEmail(form) == nil, let state = form["state"],
            oauthStates.isUnused(state)
        {
            // A form mistake, not a failed sign-in: show Apple's page again, the state stays usable.
            var fields = form
            fields["redirect_uri"] = callbackURL(environmentId: environmentId)
            return identityProviders.portalChooser(
                .apple, request, fields: fields, selectAccount: true,
                error: "Choose an account or type an email address.", status: 400)
        }
        var appleIdEmail: String?
        let response = completeCallback(environmentId: environmentId, state: form["state"], provider: .apple) {
            guard form["action"] == "continue", let email = self.identityProviders.chosenEmail(form) else { return nil }
            appleIdEmail = email
            let assertion = self.identityProviders.apple.authorize(
                appleIdEmail: email, shareEmail: form["share"] != "hide",
                environmentId: environmentId)
            return self.appleEndUserEmail(assertion, environmentId: environmentId)
        }
        guard let appleIdEmail else { return response }
        var remembered = response
        remembered.headers.append(("Set-Cookie", identityProviders.rememberCookie(appleIdEmail, provider: .apple)))
        return remembered
    }

    /// What a backend does with Apple's form_post: the `user` email at first consent, else the recorded `sub`.
    private func appleEndUserEmail(_ assertion: FakeApple.Assertion, environmentId: String) -> String? {
        let email: String?
        if let userJSON = assertion.userJSON,
            let shared = JSON.object(from: Data(userJSON.utf8))?["email"] as? String
        {
            appleSubjects.record(environmentId: environmentId, sub: assertion.sub, email: shared)
            email = shared
        } else {
            email = appleSubjects.email(environmentId: environmentId, sub: assertion.sub)
        }
        appleSubjects.received(
            .init(
                environmentId: environmentId, sub: assertion.sub,
                emailInForm: assertion.userJSON != nil, endUserEmail: email))
        return email
    }

    /// Spends the state, then redirects to the app with a grant, or with `error=oauth_failed` when the
    /// provider step failed or the state was already used; an unknown state gets a 400 page.
    private func completeCallback(
        environmentId: String, state: String?, provider: ProviderPages.Provider,
        resolveEmail: () -> String?
    ) -> EmulatorResponse {
        guard let state, let pending = oauthStates.lookup(state) else {
            return .html(
                400,
                Html.errorPage(
                    title: "Sign-in expired or unknown",
                    message:
                        "This sign-in link is not known to the emulator (it may have been reset). Start the sign-in again from the app."))
        }
        let failure = EmulatorResponse.redirect(
            to: FormEncoding.appendingQuery(pending.redirectUrl, [(PortalWire.RedirectQuery.error, "oauth_failed")]))
        guard oauthStates.consume(state), pending.environmentId == environmentId,
            let environment = environment(environmentId),
            let authMethod = provider.portalAuthMethod, environment.authMethods.contains(authMethod),
            let email = resolveEmail()
        else { return failure }
        let user = users.findOrCreate(environmentId: environmentId, email: email)
        let grant = grants.issue(
            environmentId: environmentId, endUserId: user.endUserId,
            kind: .oauth(authMethod),
            isAccountAbstracted: pending.isAccountAbstracted)
        return .redirect(
            to: FormEncoding.appendingQuery(
                pending.redirectUrl, [(PortalWire.RedirectQuery.token, grant), (PortalWire.RedirectQuery.loginType, authMethod.rawValue)]))
    }
}
