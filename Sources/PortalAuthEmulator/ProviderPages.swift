import AuthBase
import Foundation

/// The fake Google and Apple sign-in pages (contract §3): plain forms, no JavaScript.
/// Field names: radios `email`, text `custom_email`, buttons `action` = `continue`/`cancel`,
/// and on Apple radios `share` = `share`/`hide`.
enum ProviderPages {
    enum Provider: String {
        case google, apple
        var displayName: String { self == .google ? "Google" : "Apple" }
        var authMethod: AuthMethod { self == .google ? .google : .apple }
    }

    struct Chooser {
        var provider: Provider
        /// Where the form posts: the fake provider itself (Google) or the backend callback (Apple, form_post).
        var formAction: String
        var hiddenFields: [(String, String)]
        var accounts: [(email: String, name: String)]
        /// Pre-checked account (the remembered one, unless `prompt=select_account`).
        var selectedEmail: String?
        var typedEmail: String = ""
        var errorMessage: String?
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
        let sharing = provider == .apple ? """
            <fieldset>
            <legend>Email address the app receives</legend>
            <label><input type="radio" name="share" value="share" checked> Share My Email</label>
            <label><input type="radio" name="share" value="hide"> Hide My Email</label>
            <div class="hint">Hide My Email gives the app a private relay address instead.</div>
            </fieldset>
            """ : ""
        let body = """
        <main class="card \(provider.rawValue)">
        <p class="banner">Local test environment — not the real \(provider.displayName)</p>
        <div class="brand">\(provider == .google ? googleWordmark : "Apple ID")</div>
        <h1>\(provider == .google ? "Choose an account" : "Sign in with Apple")</h1>
        <p class="sub">to continue to the app (portal-auth-emulator)</p>
        \(error)
        <form method="post" action="\(Html.escape(chooser.formAction))">
        \(hidden)
        <ul class="accounts">
        \(accountItems)
        </ul>
        <label class="other" for="custom_email">Use another account</label>
        <input type="email" id="custom_email" name="custom_email" value="\(Html.escape(chooser.typedEmail))" placeholder="name@example.com" autocomplete="off">
        \(sharing)
        <div class="actions">
        <button type="submit" class="primary" name="action" value="continue">Continue</button>
        <button type="submit" class="secondary" name="action" value="cancel">Cancel</button>
        </div>
        </form>
        <footer>Nothing you enter here leaves this computer.</footer>
        </main>
        """
        return Html.page(title: "Sign in – \(provider.displayName) (local test)", style: provider == .google ? googleStyle : appleStyle, body: body)
    }

    private static let googleWordmark = """
    <span style="color:#4285f4">G</span><span style="color:#ea4335">o</span><span style="color:#fbbc05">o</span><span style="color:#4285f4">g</span><span style="color:#34a853">l</span><span style="color:#ea4335">e</span>
    """

    private static let googleStyle = """
    .brand{font-size:24px;font-weight:500;letter-spacing:-.5px}
    """

    private static let appleStyle = """
    .brand{font-size:20px;font-weight:600;color:#1d1d1f}
    .apple .avatar{background:#1d1d1f}
    .apple button.primary{background:#1d1d1f}
    .apple button.secondary{color:#1d1d1f}
    .apple .accounts label:hover{background:#f5f5f7}
    """
}
