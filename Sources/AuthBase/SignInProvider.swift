/// A way to sign in, in the order the sign-in page lists them. Its raw value is its identifier, the
/// one word for it in URLs (`/idp/google/`), the CLI, keyring records and style classes; an unknown
/// word is nil, never another provider. Everything else about a provider is its entry in the table
/// (`SignInProvider+Table.swift`); Portal's `AuthMethod` and `TurnkeyProvider` are views of it.
public enum SignInProvider: String, Sendable, CaseIterable, Codable, Comparable {
    /// Google: OAuth on Portal, OpenID Connect on Turnkey.
    case google
    /// Apple: OAuth on Portal, OpenID Connect on Turnkey.
    case apple
    /// Discord: OAuth 2.0 with PKCE, on Turnkey.
    case discord
    /// X (Twitter): OAuth 2.0 with PKCE, on Turnkey.
    case x

    /// Whether `lhs` comes before `rhs` on the sign-in page.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The brand's own name, the same in every language.
    public var displayName: String { entry.displayName }
    /// The brand mark's icon name in the app's GResource.
    package var mark: String { entry.mark }
    package var brandStyle: BrandStyle { entry.brandStyle }
    /// The backends that offer this provider, in `Backend` order.
    public var backends: [Backend] { Backend.allCases.filter { offer(on: $0) != nil } }

    /// How `backend` signs in with this provider, or nil when it does not offer it.
    package func offer(on backend: Backend) -> ProviderOffer? {
        entry.offers.first { $0.backend == backend }
    }

    /// The provider whose Auth Proxy exchange (`oauth2_authenticate`) names it `authProxyProvider`.
    package init?(authProxyProvider: TurnkeyWire.OAuth2Provider) {
        guard let provider = Self.allCases.first(where: { $0.authProxyProvider == authProxyProvider }) else { return nil }
        self = provider
    }

    /// The `provider` of `oauth2_authenticate`, for the providers whose Turnkey flow is PKCE.
    package var authProxyProvider: TurnkeyWire.OAuth2Provider? {
        guard case .oauth2PKCE(_, _, let name)? = offer(on: .turnkey)?.flow else { return nil }
        return TurnkeyWire.OAuth2Provider(uncheckedName: name)
    }

    /// `names` as an English sentence lists them (`google, apple, discord or x`), for the help and
    /// usage texts of the CLI and the emulator, which are English only.
    package static func englishList(_ names: [String], _ conjunction: String) -> String {
        guard let last = names.last, names.count > 1 else { return names.last ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// Where the emulator serves this provider's fake sign-in page: `/idp/<identifier>/authorize`.
    package var emulatorAuthorizePath: String { "/idp/\(rawValue)/authorize" }

    /// The provider whose fake page the emulator serves at `path`, or nil.
    package init?(emulatorAuthorizePath path: String) {
        guard let provider = Self.allCases.first(where: { $0.emulatorAuthorizePath == path }) else { return nil }
        self = provider
    }
}

/// One row of the provider table.
package struct ProviderEntry: Sendable, Equatable {
    package let displayName: String
    package let mark: String
    package let brandStyle: BrandStyle
    /// One per backend that offers the provider.
    package let offers: [ProviderOffer]
}

/// How one backend signs in with a provider.
package struct ProviderOffer: Sendable, Equatable {
    package let backend: Backend
    /// The backend's own name for the provider: Portal's auth method (`GOOGLE`), Turnkey's
    /// `providerName` (`twitter` for X).
    package let name: String
    package let flow: ProviderFlow
}

/// The protocol a sign-in with a provider follows.
package enum ProviderFlow: Sendable, Equatable {
    /// Portal's hosted OAuth: Portal hands out the provider's authorize URL and redirects back to
    /// the app with a grant.
    case portalHostedOAuth
    /// OpenID Connect through Turnkey's origin page: the provider's `id_token` carries a nonce bound
    /// to a fresh key.
    case oidcWithNonce
    /// OAuth 2.0 with PKCE at the provider's own authorize endpoint (`authorizeUrl`, unless the
    /// configuration names another), asking for `scope`; the Auth Proxy exchanges the code
    /// (`oauth2_authenticate`, which names the provider `authProxyName`).
    case oauth2PKCE(authorizeUrl: String, scope: String, authProxyName: String)
}

/// How a provider's sign-in button is drawn, by the brand's rules. Every button has the same size,
/// shape, label pattern and focus ring; the colours are the style class's rules in the app's
/// stylesheets (light and dark).
package struct BrandStyle: Sendable, Equatable {
    /// The style class that carries the brand's colours.
    package let styleClass: String
    package let markColouring: MarkColouring

    package enum MarkColouring: Sendable, Equatable {
        /// The mark is never recoloured (Google's four-colour G): a full-colour icon.
        case ownColours
        /// The mark is drawn in the button's text colour (Apple, X, Discord): a symbolic icon.
        case textColour
    }
}
