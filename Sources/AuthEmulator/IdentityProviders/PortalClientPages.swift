import AuthBase
import Foundation

/// The fake Google's and Apple's pages for Portal's environments: an account chooser whose answer
/// goes to Portal's callback. Google's form comes back to Google, which sends a code on; Apple's
/// posts to the callback itself (form_post), where Portal's side of Apple takes over.
extension IdentityProviders {
    func showPortalPage(_ provider: ProviderPages.Provider, _ request: EmulatorRequest) -> EmulatorResponse {
        let query = request.query
        return portalChooser(provider, request, fields: query, selectAccount: query["prompt"] == "select_account")
    }

    /// Google's form comes back here: a choice becomes a code on the callback, Cancel an error.
    func submitPortalGooglePage(_ request: EmulatorRequest) -> EmulatorResponse {
        let form = request.form
        guard let redirectUri = form["redirect_uri"], portalEnvironment(forCallback: redirectUri) != nil,
            let state = form["state"], !state.isEmpty
        else {
            return .html(
                400,
                Html.errorPage(
                    title: "Invalid request",
                    message: "The sign-in request is missing its redirect_uri or state. Start the sign-in again from the app."))
        }
        if form["action"] != "continue" {
            return .redirect(to: FormEncoding.appendingQuery(redirectUri, [("error", "access_denied"), ("state", state)]))
        }
        guard let email = chosenEmail(form) else {
            return portalChooser(
                .google, request, fields: form, selectAccount: true,
                error: "Choose an account or type an email address.", status: 400)
        }
        let code = google.issueCode(email: email)
        var response = EmulatorResponse.redirect(to: FormEncoding.appendingQuery(redirectUri, [("code", code), ("state", state)]))
        response.headers.append(("Set-Cookie", rememberCookie(email, provider: .google)))
        return response
    }

    func portalChooser(
        _ provider: ProviderPages.Provider, _ request: EmulatorRequest, fields: [String: String],
        selectAccount: Bool, error: String? = nil, status: Int = 200
    ) -> EmulatorResponse {
        guard let redirectUri = fields["redirect_uri"], let environment = portalEnvironment(forCallback: redirectUri) else {
            return .html(
                400,
                Html.errorPage(
                    title: "redirect_uri not registered",
                    message: "This sign-in request does not come from the emulator's Portal callback. Start the sign-in again from the app."
                ))
        }
        guard let state = fields["state"], !state.isEmpty else {
            return .html(
                400,
                Html.errorPage(title: "Missing state", message: "The sign-in request has no state. Start the sign-in again from the app."))
        }
        var accounts = environment.users.map { (email: $0.email, name: $0.name) }
        let remembered = rememberedAccount(request)
        if let remembered, !accounts.contains(where: { $0.email == remembered }) {
            accounts.append((email: remembered, name: ""))
        }
        // A page that answers back to the provider (Google) carries the request along; a form_post
        // one (Apple) goes to the callback with the state only.
        let formPost = provider.fakePage.answersPortalByFormPost
        let hidden: [(String, String)] =
            formPost ? [("state", state)] : [("client_id", fields["client_id"] ?? ""), ("redirect_uri", redirectUri), ("state", state)]
        let chooser = ProviderPages.Chooser(
            provider: provider,
            formAction: formPost ? redirectUri : baseURL + provider.emulatorAuthorizePath,
            hiddenFields: hidden,
            accounts: accounts,
            selectedEmail: selectAccount ? nil : remembered,
            typedEmail: fields["custom_email"] ?? "",
            errorMessage: error)
        return .html(status, ProviderPages.chooser(chooser))
    }
}
