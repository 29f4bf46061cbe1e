import Foundation
import Testing

@testable import TurnkeyAuth

/// `TurnkeyProvider` is the table's view of the providers Turnkey offers: nothing of its own.
@Suite("TurnkeyProvider: a view of the provider table")
struct TurnkeyProviderTests {
    @Test func itsProvidersAreTheTablesWithATurnkeyFlowInTheTablesOrder() {
        #expect(TurnkeyProvider.allCases.map(\.signInProvider) == SignInProvider.allCases.filter { $0.offer(on: .turnkey) != nil })
        #expect(TurnkeyProvider.allCases == [.google, .apple, .discord, .x])
        for provider in TurnkeyProvider.allCases {
            #expect(TurnkeyProvider(provider.signInProvider) == provider)
            #expect(provider.displayName == provider.signInProvider.displayName)
        }
    }

    @Test func anIdentifierRoundTripsAndAnUnknownOneIsRefusedNotGoogle() {
        for provider in TurnkeyProvider.allCases { #expect(TurnkeyProvider(rawValue: provider.rawValue) == provider) }
        for word in ["", "Google", "twitter", "github", "GOOGLE"] {
            #expect(TurnkeyProvider(rawValue: word) == nil, "\(word) named a provider")
        }
    }

    @Test func theSDKsProviderNamesNameXTwitterAndAcceptBoth() {
        #expect(TurnkeyProvider.allCases.map(\.providerName) == ["google", "apple", "discord", "twitter"])
        #expect(TurnkeyProvider(providerName: "twitter") == .x)
        #expect(TurnkeyProvider(providerName: "x") == .x)
        #expect(TurnkeyProvider(providerName: "github") == nil)
        #expect(TurnkeyProvider(providerName: "Twitter") == nil)
    }

    @Test func theFlowComesFromTheTable() {
        #expect(TurnkeyProvider.allCases.filter(\.usesPKCE) == [.discord, .x])
        #expect(TurnkeyProvider.discord.scope == "identify email")
        #expect(TurnkeyProvider.x.scope == "tweet.read users.read")
        #expect(TurnkeyProvider.google.scope == nil && TurnkeyProvider.google.oauth2Provider == nil)
        #expect(TurnkeyProvider.x.oauth2Provider?.rawValue == "OAUTH2_PROVIDER_X")
    }

    /// Pending sign-ins wait in the keyring for an hour: the record's provider is spelled as before
    /// (the identifier, `x` not `twitter`), and a record naming no provider is not the stored shape.
    @Test func aPendingRecordSpellsTheProviderByItsIdentifier() throws {
        let pending = TurnkeyPendingSignInRecord(
            state: "s", provider: .x, publicKey: "02ab", clientId: "c", redirectUri: "r",
            codeVerifier: nil, createdAt: 0)
        #expect(pending.encoded().contains(#""provider":"x""#))
        #expect(TurnkeyPendingSignInRecord.decode(pending.encoded()) == pending)
        let unknown = pending.encoded().replacingOccurrences(of: #""provider":"x""#, with: #""provider":"github""#)
        #expect(TurnkeyPendingSignInRecord.decode(unknown) == nil)
    }
}
