import AuthBase
import Foundation

/// Issuers and their published keys.
extension EmulatorContext {
    /// The issuer of the OIDC tokens Turnkey mints (the PKCE providers: Discord, X).
    var turnkeyIssuer: String { baseURL + "/turnkey" }

    /// The generic OIDC issuer ("any OIDC provider", GenericOIDCIssuer.swift).
    var genericOIDCIssuer: String { baseURL + TurnkeyWire.EmulatorPath.oidcIssuer }

    func isGenericOIDCIssuer(_ issuer: String) -> Bool { issuer == genericOIDCIssuer }

    /// The issuer of the fake Google's or Apple's `id_token`s.
    func identityProviderIssuer(_ provider: IdentityProvider) -> String { "\(baseURL)/idp/\(provider.rawValue)" }

    /// The JWKS document that vouches for an issuer's tokens, nil for an issuer this emulator is not.
    func jwksDocument(forIssuer issuer: String) -> Data? {
        switch issuer {
        case turnkeyIssuer: tokens.jwksDocument(.turnkey)
        case genericOIDCIssuer: tokens.jwksDocument(.identityProviders)
        default: idTokenIssuer(issuer) == nil ? nil : tokens.jwksDocument(.identityProviders)
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
    /// subject's `<identifier>:` prefix.
    func provider(of token: OIDCTokens.Verified) -> IdentityProvider? {
        guard token.issuer == turnkeyIssuer else { return idTokenIssuer(token.issuer) }
        return IdentityProvider.allCases.first { $0.authProxyProvider != nil && token.subject.hasPrefix("\($0.rawValue):") }
    }

    /// The provider that issues `id_token`s itself (Google, Apple) as `issuer`, or nil.
    private func idTokenIssuer(_ issuer: String) -> IdentityProvider? {
        IdentityProvider.allCases.first { $0.issuesIdTokens && identityProviderIssuer($0) == issuer }
    }
}
