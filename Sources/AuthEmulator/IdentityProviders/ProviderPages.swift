import AuthBase
import Foundation

/// The fake providers' sign-in pages (contract §3): plain forms, no JavaScript.
/// Field names: radios `email`, text `custom_email`, buttons `action` = `continue`/`cancel`,
/// and, where the provider offers Hide My Email (Apple), radios `share` = `share`/`hide`. The PKCE
/// providers (Discord, X) also list the scopes asked for. What differs by provider is its `FakePage`.
enum ProviderPages {
    typealias Provider = IdentityProvider

    struct Chooser {
        var provider: Provider
        /// Where the form posts: the fake provider itself (Google, and every Turnkey flow) or Portal's
        /// backend callback (Apple, form_post).
        var formAction: String
        var hiddenFields: [(String, String)]
        var accounts: [(email: String, name: String)]
        /// Pre-checked account (the remembered one, unless `prompt=select_account`).
        var selectedEmail: String?
        var typedEmail: String = ""
        var errorMessage: String?
        /// The `scope` asked for (Discord and X show what it allows).
        var scope: String = ""
    }

    static func chooser(_ chooser: Chooser) -> String {
        let provider = chooser.provider
        let hidden = chooser.hiddenFields
            .map { "<input type=\"hidden\" name=\"\(Html.escape($0.0))\" value=\"\(Html.escape($0.1))\">" }
            .joined(separator: "\n")
        let accountItems = chooser.accounts.enumerated().map { index, account in
            let checked = account.email == chooser.selectedEmail ? " checked" : ""
            let initial = Html.escape(String((account.name.isEmpty ? account.email : account.name).prefix(1)).uppercased())
            let remembered = account.email == chooser.selectedEmail ? "<span class=\"tag\">Last used</span>" : ""
            let name = account.name.isEmpty ? account.email : account.name
            return """
                <li><label for="account-\(index)">
                <input type="radio" id="account-\(index)" name="email" value="\(Html.escape(account.email))"\(checked)>
                <span class="avatar" aria-hidden="true">\(initial)</span>
                <span class="who"><span class="name">\(Html.escape(name))</span><span class="mail">\(Html.escape(account.email))</span></span>
                \(remembered)</label></li>
                """
        }.joined(separator: "\n")
        let error = chooser.errorMessage.map { "<p class=\"error\" role=\"alert\">\(Html.escape($0))</p>" } ?? ""
        let sharing =
            provider.fakePage.offersHideMyEmail
            ? """
            <fieldset>
            <legend>Email address the app receives</legend>
            <label><input type="radio" name="share" value="share" checked> Share My Email</label>
            <label><input type="radio" name="share" value="hide"> Hide My Email</label>
            <div class="hint">Hide My Email gives the app a private relay address instead.</div>
            </fieldset>
            """ : ""
        let scopes = provider.issuesIdTokens ? "" : scopeList(provider, chooser.scope)
        let body = """
            <main class="card \(provider.rawValue)">
            <p class="banner">Local test environment — not the real \(provider.displayName)</p>
            <div class="brand">\(provider.fakePage.wordmark)</div>
            <h1>\(provider.fakePage.heading)</h1>
            <p class="sub">\(provider.issuesIdTokens ? "to continue to the app" : "An app wants to access your \(provider.displayName) account") (portal-auth-emulator)</p>
            \(error)
            <form method="post" action="\(Html.escape(chooser.formAction))">
            \(hidden)
            \(scopes)
            <ul class="accounts">
            \(accountItems)
            </ul>
            <label class="other" for="custom_email">Use another account</label>
            <input type="email" id="custom_email" name="custom_email" value="\(Html.escape(chooser.typedEmail))" placeholder="name@example.com" autocomplete="off">
            \(sharing)
            <div class="actions">
            <button type="submit" class="primary" name="action" value="continue">\(provider.issuesIdTokens ? "Continue" : "Authorize")</button>
            <button type="submit" class="secondary" name="action" value="cancel">Cancel</button>
            </div>
            </form>
            <footer>Nothing you enter here leaves this computer.</footer>
            </main>
            """
        return Html.page(
            title: "Sign in – \(provider.displayName) (local test)",
            style: (provider.issuesIdTokens ? "" : scopesStyle) + provider.fakePage.style,
            body: body)
    }

    /// What the asked-for scopes let the app do, in the provider's words; unknown scopes as sent.
    private static func scopeList(_ provider: Provider, _ scope: String) -> String {
        let descriptions = provider.fakePage.scopeWords
        let items = scope.split(separator: " ").map { name in
            "<li>\(Html.escape(descriptions[String(name)] ?? String(name)))</li>"
        }
        guard !items.isEmpty else { return "" }
        return "<div class=\"scopes\"><p>This will allow the app to:</p><ul>\(items.joined())</ul></div>"
    }

    /// The rules every page with a scope list shares.
    static let scopesStyle = """
        .scopes{border-top:1px solid #e3e3e3;border-bottom:1px solid #e3e3e3;margin:0 0 14px;padding:6px 0}
        .scopes p{margin:6px 0;font-weight:600;font-size:13px;text-transform:uppercase;letter-spacing:.3px}
        .scopes ul{margin:0 0 6px;padding-left:20px}
        """
}
