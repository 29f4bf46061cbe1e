import AuthBase
import Foundation

/// Issuers and their published keys.
extension EmulatorContext {
    /// The issuer of the OIDC tokens Turnkey mints (Discord, X).
    var turnkeyIssuer: String { baseURL + "/turnkey" }

    /// The issuer of the fake Google's or Apple's `id_token`s.
    func identityProviderIssuer(_ provider: IdentityProvider) -> String { "\(baseURL)/idp/\(provider.rawValue)" }

    /// The JWKS document that vouches for an issuer's tokens, nil for an issuer this emulator is not.
    func jwksDocument(forIssuer issuer: String) -> Data? {
        switch issuer {
        case identityProviderIssuer(.google), identityProviderIssuer(.apple): tokens.jwksDocument(.identityProviders)
        case turnkeyIssuer: tokens.jwksDocument(.turnkey)
        default: nil
        }
    }

    /// `GET /idp/.well-known/jwks.json`, `GET /turnkey/.well-known/jwks.json`.
    func serveJWKS(_ family: OIDCTokens.KeyFamily) -> EmulatorResponse {
        EmulatorResponse(status: 200, contentType: "application/json", body: tokens.jwksDocument(family))
    }

    func verifyOIDCToken(_ token: String) throws(OIDCTokens.Refusal) -> OIDCTokens.Verified {
        try tokens.verify(token, now: now, jwksForIssuer: jwksDocument(forIssuer:))
    }

    /// Which provider's user a verified token names: by issuer, and for Turnkey's own tokens by the
    /// subject's `discord:` / `x:` prefix.
    func provider(of token: OIDCTokens.Verified) -> IdentityProvider? {
        switch token.issuer {
        case identityProviderIssuer(.google): .google
        case identityProviderIssuer(.apple): .apple
        case turnkeyIssuer: [IdentityProvider.discord, .x].first { token.subject.hasPrefix("\($0.rawValue):") }
        default: nil
        }
    }
}
