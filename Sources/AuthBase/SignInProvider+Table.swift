/// The provider table: every fact about each provider, in one place; the cores, the CLI and the
/// emulator read it. Adding a provider is a case of `SignInProvider`, its row here, its words in the
/// app and its fake page in the emulator (docs/ARCHITECTURE.md, "Adding a provider").
extension SignInProvider {
    package var entry: ProviderEntry {
        switch self {
        case .google:
            ProviderEntry(
                displayName: "Google", mark: "io.github.portalauth.SignIn-google",
                brandStyle: BrandStyle(styleClass: "brand-google", markColouring: .ownColours),
                offers: [
                    ProviderOffer(backend: .portal, name: "GOOGLE", flow: .portalHostedOAuth),
                    ProviderOffer(backend: .turnkey, name: "google", flow: .oidcWithNonce)
                ])
        case .apple:
            ProviderEntry(
                displayName: "Apple", mark: "io.github.portalauth.SignIn-apple-symbolic",
                brandStyle: BrandStyle(styleClass: "brand-apple", markColouring: .textColour),
                offers: [
                    ProviderOffer(backend: .portal, name: "APPLE", flow: .portalHostedOAuth),
                    ProviderOffer(backend: .turnkey, name: "apple", flow: .oidcWithNonce)
                ])
        case .discord:
            ProviderEntry(
                displayName: "Discord", mark: "io.github.portalauth.SignIn-discord-symbolic",
                brandStyle: BrandStyle(styleClass: "brand-discord", markColouring: .textColour),
                offers: [
                    ProviderOffer(
                        backend: .turnkey, name: "discord",
                        flow: .oauth2PKCE(
                            authorizeUrl: "https://discord.com/oauth2/authorize", scope: "identify email",
                            authProxyName: "OAUTH2_PROVIDER_DISCORD"))
                ])
        case .x:
            ProviderEntry(
                displayName: "X", mark: "io.github.portalauth.SignIn-x-symbolic",
                brandStyle: BrandStyle(styleClass: "brand-x", markColouring: .textColour),
                offers: [
                    ProviderOffer(
                        backend: .turnkey, name: "twitter",
                        flow: .oauth2PKCE(
                            authorizeUrl: "https://x.com/i/oauth2/authorize", scope: "tweet.read users.read",
                            authProxyName: "OAUTH2_PROVIDER_X"))
                ])
        }
    }
}
