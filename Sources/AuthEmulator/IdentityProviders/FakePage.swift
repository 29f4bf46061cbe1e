import AuthBase

/// What the emulator's fake sign-in page for each provider needs beside the provider's row in the
/// table: the emulator's part of the row. One exhaustive switch, so a provider without a page does
/// not compile; the page itself (`ProviderPages`) and its route (`/idp/<identifier>/authorize`) are
/// the same for every provider.
struct FakePage {
    /// The brand's wordmark at the top of the page (HTML).
    let wordmark: String
    let heading: String
    /// The page's own style rules (the card carries the identifier as its class).
    let style: String
    /// How many digits the provider's numeric account IDs have.
    let accountIdDigits: Int
    /// What each scope the app may ask for lets it do, in the provider's words (PKCE providers).
    var scopeWords: [String: String] = [:]
    /// Apple's "Hide My Email": the page lets the person give the app a relay address.
    var offersHideMyEmail = false
    /// For a provider Portal offers: the end of the authorize URL Portal hands out, after
    /// `client_id`, `redirect_uri` and `state`, as the real provider's is written.
    var portalAuthorizeParameters = ""
    /// For a provider Portal offers: whether its page posts the choice straight to Portal's callback
    /// (Apple's `form_post`) instead of back to the provider, which sends a code on (Google).
    var answersPortalByFormPost = false
    /// For a provider Turnkey's origin page sends on (OIDC): the authorize parameters after
    /// `client_id`, `redirect_uri` and `response_type`, around the key's `nonce`.
    var originParameters: (_ nonce: String) -> [(String, String)] = { _ in [] }
    /// For a PKCE provider: whether the token Turnkey mints from its code carries the email (Discord's
    /// `email` scope shares the address; X's scopes do not).
    var sharesEmailWithTurnkey = false
}

extension SignInProvider {
    var fakePage: FakePage {
        switch self {
        case .google:
            FakePage(
                wordmark: """
                    <span style="color:#4285f4">G</span><span style="color:#ea4335">o</span><span style="color:#fbbc05">o</span><span style="color:#4285f4">g</span><span style="color:#34a853">l</span><span style="color:#ea4335">e</span>
                    """,
                heading: "Choose an account",
                style: """
                    .brand{font-size:24px;font-weight:500;letter-spacing:-.5px}
                    """,
                accountIdDigits: 21,
                portalAuthorizeParameters: "response_type=code&scope=openid%20email",
                originParameters: { [("scope", "openid email profile"), ("nonce", $0), ("prompt", "select_account")] })
        case .apple:
            FakePage(
                wordmark: "Apple ID", heading: "Sign in with Apple",
                style: """
                    .brand{font-size:20px;font-weight:600;color:#1d1d1f}
                    .apple .avatar{background:#1d1d1f}
                    .apple button.primary{background:#1d1d1f}
                    .apple button.secondary{color:#1d1d1f}
                    .apple .accounts label:hover{background:#f5f5f7}
                    """,
                accountIdDigits: 19, offersHideMyEmail: true,
                portalAuthorizeParameters: "response_type=code&response_mode=form_post&scope=name%20email",
                answersPortalByFormPost: true,
                originParameters: { [("response_mode", "fragment"), ("nonce", $0)] })
        case .discord:
            FakePage(
                wordmark: "Discord", heading: "Authorize access",
                style: """
                    body{background:#5865f2}
                    .discord{background:#313338;color:#dbdee1}
                    .discord .brand{font-size:22px;font-weight:800;color:#fff;letter-spacing:.5px}
                    .discord h1{color:#f2f3f5}
                    .discord .sub,.discord .who .mail,.discord .tag,.discord footer{color:#b5bac1}
                    .discord .accounts,.discord .accounts li{border-color:#3f4147}
                    .discord .accounts label:hover{background:#2b2d31}
                    .discord .avatar{background:#5865f2}
                    .discord input[type=email]{background:#1e1f22;color:#dbdee1;border-color:#1e1f22}
                    .discord button{border-radius:4px}
                    .discord button.primary{background:#5865f2}
                    .discord button.secondary{color:#f2f3f5;border-color:transparent}
                    .discord .scopes{border-color:#3f4147}
                    """,
                accountIdDigits: 18, // a snowflake
                scopeWords: ["identify": "Access your username, avatar and banner", "email": "Access your email address"],
                sharesEmailWithTurnkey: true)
        case .x:
            FakePage(
                wordmark: "<span aria-label=\"X\">𝕏</span>", heading: "Authorize app",
                style: """
                    .x .brand{font-size:30px;font-weight:700;color:#0f1419;line-height:1}
                    .x h1{font-weight:800;color:#0f1419}
                    .x .avatar{background:#0f1419}
                    .x button{border-radius:9999px}
                    .x button.primary{background:#0f1419}
                    .x button.secondary{color:#0f1419;border-color:#cfd9de}
                    .x .accounts label:hover{background:#f7f9f9}
                    """,
                accountIdDigits: 19,
                scopeWords: [
                    "tweet.read": "Read posts you can see", "users.read": "Read profile information of accounts you can see",
                    "offline.access": "Stay connected until you revoke access"
                ])
        }
    }
}
