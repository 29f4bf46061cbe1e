import AuthBase
import Foundation
import Testing

/// The provider table: one identifier per provider, the views derived from it, no fallback.
@Suite("The provider table")
struct ProviderTableTests {
    @Test func everyIdentifierRoundTripsAndAnUnknownOneNamesNoProvider() {
        #expect(SignInProvider.allCases.map(\.rawValue) == ["google", "apple", "discord", "x"])
        for provider in SignInProvider.allCases {
            #expect(SignInProvider(rawValue: provider.rawValue) == provider)
        }
        // Near misses are refused, not read as Google: another case, a backend's own name, padding.
        for word in ["", "Google", "GOOGLE", "google ", "twitter", "github", "emailMagicLink"] {
            #expect(SignInProvider(rawValue: word) == nil, "\(word) named a provider")
        }
    }

    @Test func theSignInPageOrderIsTheTableOrder() {
        #expect([SignInProvider.x, .google, .discord, .apple].sorted() == SignInProvider.allCases)
    }

    @Test func eachBrandKeepsItsOwnNameInEveryLanguage() {
        #expect(SignInProvider.allCases.map(\.displayName) == ["Google", "Apple", "Discord", "X"])
    }

    @Test func portalsMethodsAreTheProvidersPortalOffersAfterEmailLinks() {
        #expect(AuthMethod.allCases.map(\.rawValue) == ["EMAIL_MAGIC_LINK", "GOOGLE", "APPLE"])
        #expect(AuthMethod.providers.map(\.provider) == SignInProvider.allCases.filter { $0.backends.contains(.portal) })
        #expect(AuthMethod.emailMagicLink.provider == nil)
        for method in AuthMethod.providers {
            let provider = try! #require(method.provider)
            #expect(AuthMethod(provider) == method)
            #expect(method.displayName == provider.displayName)
            #expect(provider.offer(on: .portal)?.flow == .portalHostedOAuth)
        }
        #expect(AuthMethod(.discord) == nil && AuthMethod(.x) == nil)
    }

    @Test func aPortalNameRoundTripsAndAnUnknownOneIsRefused() throws {
        for method in AuthMethod.allCases { #expect(AuthMethod(rawValue: method.rawValue) == method) }
        for name in ["google", "PASSKEY", "DISCORD", "X", ""] { #expect(AuthMethod(rawValue: name) == nil, "\(name) named a method") }
        #expect(String(decoding: try JSONEncoder().encode([AuthMethod.apple]), as: UTF8.self) == #"["APPLE"]"#)
        #expect(try JSONDecoder().decode([AuthMethod].self, from: Data(#"["GOOGLE"]"#.utf8)) == [.google])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([AuthMethod].self, from: Data(#"["PASSKEY"]"#.utf8)) }
        // Logs and error descriptions print a method as the enum it replaced did.
        #expect(AuthMethod.allCases.map(\.description) == ["emailMagicLink", "google", "apple"])
    }

    @Test func turnkeyOffersEveryProviderOneFlowEach() {
        #expect(SignInProvider.allCases.filter { $0.backends.contains(.turnkey) } == SignInProvider.allCases)
        #expect(SignInProvider.google.offer(on: .turnkey)?.flow == .oidcWithNonce)
        #expect(SignInProvider.apple.offer(on: .turnkey)?.flow == .oidcWithNonce)
        #expect(
            SignInProvider.discord.offer(on: .turnkey)?.flow
                == .oauth2PKCE(
                    authorizeUrl: "https://discord.com/oauth2/authorize", scope: "identify email", authProxyName: "OAUTH2_PROVIDER_DISCORD")
        )
        #expect(
            SignInProvider.x.offer(on: .turnkey)?.flow
                == .oauth2PKCE(
                    authorizeUrl: "https://x.com/i/oauth2/authorize", scope: "tweet.read users.read", authProxyName: "OAUTH2_PROVIDER_X"))
        #expect(SignInProvider.x.offer(on: .turnkey)?.name == "twitter")
        #expect(SignInProvider.discord.offer(on: .portal) == nil)
    }

    @Test func theAuthProxyNameOfAPKCEProviderLeadsBackToIt() {
        for provider in SignInProvider.allCases {
            if let name = provider.authProxyProvider {
                #expect(SignInProvider(authProxyProvider: name) == provider)
            }
        }
        #expect(SignInProvider.google.authProxyProvider == nil)
    }

    @Test func aMarkIsSymbolicExactlyWhenItTakesTheButtonsTextColour() {
        for provider in SignInProvider.allCases {
            let symbolic = provider.mark.hasSuffix("-symbolic")
            #expect(symbolic == (provider.brandStyle.markColouring == .textColour), "\(provider)")
        }
        #expect(SignInProvider.google.brandStyle.markColouring == .ownColours)
    }

    /// A row a backend offers is complete: a name to show, and for a PKCE flow an https authorize
    /// endpoint, a scope and an Auth Proxy name that leads back to the provider.
    @Test func everyOfferedProviderHasItsWholeRow() {
        for provider in SignInProvider.allCases where !provider.backends.isEmpty {
            #expect(!provider.displayName.isEmpty, "\(provider)")
            for offer in provider.entry.offers {
                #expect(!offer.name.isEmpty, "\(provider) on \(offer.backend)")
                guard case .oauth2PKCE(let authorizeUrl, let scope, let authProxyName) = offer.flow else { continue }
                #expect(authorizeUrl.hasPrefix("https://") && URL(string: authorizeUrl)?.host?.isEmpty == false, "\(provider)")
                #expect(!scope.isEmpty, "\(provider)")
                #expect(TurnkeyWire.OAuth2Provider(rawValue: authProxyName).flatMap(SignInProvider.init(authProxyProvider:)) == provider)
            }
        }
        #expect(TurnkeyWire.OAuth2Provider(rawValue: "OAUTH2_PROVIDER_GOOGLE") == nil)
    }

    /// The app's data has what the table points at: the mark in the GResource, the colours in the stylesheet.
    @Test func everyMarkIsInTheAppsResourcesAndEveryStyleClassHasColours() throws {
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data")
        let resources = try String(contentsOf: data.appendingPathComponent("io.github.portalauth.SignIn.gresource.xml"), encoding: .utf8)
        let light = try String(contentsOf: data.appendingPathComponent("resources/style.css"), encoding: .utf8)
        for provider in SignInProvider.allCases {
            #expect(resources.contains(#"alias="icons/scalable/actions/\#(provider.mark).svg""#), "no mark for \(provider)")
            #expect(light.contains("button.\(provider.brandStyle.styleClass) {"), "no colours for \(provider)")
            // The alias points at a file that is there.
            let file = resources.components(separatedBy: #"alias="icons/scalable/actions/\#(provider.mark).svg">"#).dropFirst().first?
                .components(separatedBy: "<").first
            let path = data.appendingPathComponent(file ?? "missing").path
            #expect(FileManager.default.fileExists(atPath: path), "no mark file for \(provider)")
        }
    }
}
