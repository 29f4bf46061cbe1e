import AuthBase
import Foundation
import Testing

@testable import AuthEmulator

/// Each provider in the table has its fake page: the emulator's part of the provider's row, routed
/// at `/idp/<identifier>/authorize` for every provider without a route of its own.
@Suite("Every provider's fake page")
final class ProviderPageTests: EmulatorSuite {
    @Test func everyProviderABackendOffersHasAFakePageInItsRow() {
        for provider in SignInProvider.allCases where !provider.backends.isEmpty {
            let page = provider.fakePage
            #expect(!page.wordmark.isEmpty && !page.heading.isEmpty && !page.style.isEmpty, "\(provider)")
            #expect((3...32).contains(page.accountIdDigits), "\(provider)")
            if case .oauth2PKCE(_, let scope, _)? = provider.offer(on: .turnkey)?.flow {
                // The page words each scope the app asks for, rather than showing the raw name.
                for name in scope.split(separator: " ") { #expect(page.scopeWords[String(name)] != nil, "\(provider): \(name)") }
            }
            if provider.issuesIdTokens { #expect(!page.originParameters("n").isEmpty, "\(provider)") }
            if provider.offer(on: .portal) != nil { #expect(page.portalAuthorizeParameters.contains("response_type="), "\(provider)") }
        }
    }

    @Test func everyTurnkeyProviderPageIsServedAtItsTablePath() async throws {
        for provider in SignInProvider.allCases where provider.offer(on: .turnkey) != nil {
            let url: String
            if provider.authProxyProvider != nil {
                url = client.oauth2AuthorizeURL(provider: provider.rawValue, challenge: try PKCEPair().challenge)
            } else {
                let origin = try await client.get(client.originURL(provider: provider.rawValue, nonce: "n", state: nil))
                url = try #require(origin.location)
            }
            #expect(url.hasPrefix(emulator.baseURL.absoluteString + provider.emulatorAuthorizePath + "?"), "\(provider)")
            let page = try await client.get(url)
            #expect(page.status == 200, "\(provider)")
            #expect(page.text.contains("<main class=\"card \(provider.rawValue)\">"), "\(provider)")
            #expect(page.text.contains("not the real \(provider.displayName)"), "\(provider)")
        }
    }
}
