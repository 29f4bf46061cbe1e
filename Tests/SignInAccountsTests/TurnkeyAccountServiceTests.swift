import AuthBase
import AuthTestSupport
import Foundation
import SignInFlow
import Testing
import TurnkeyAuth

@testable import SignInAccounts

@MainActor
@Suite("TurnkeyAccountService: TurnkeyAuth adapted to the flow", .timeLimit(.minutes(1)))
struct TurnkeyAccountServiceTests {
    @Test func aDiscordSignInIsAwaitedTakenAndNamedFromTurnkeysFacts() async throws {
        let f = try TurnkeyFixture()
        f.replyDiscordLogin()
        let (task, callback) = try await f.startDiscordSignIn()
        #expect(f.service.authorizeURL == f.browser.openedURLs.last)
        #expect(f.service.offer(callback) == .taken)
        guard case .signedIn(let account) = try await task.value else { throw TurnkeyFixture.Unexpected() }
        #expect(account.id == "default")
        #expect(account.title == "alice · Discord")
        #expect(
            account.details == [
                .organization("sub-org-1800000000"), .user("alice"), .provider(.discord),
                .sessionExpires(TK.start.addingTimeInterval(900))
            ])
        #expect(f.sessions.jwt("default") != nil && f.pending.items.items.isEmpty)
    }

    @Test func theBrowserIsOpenedFromTheWindowTheSignInStartsFrom() async throws {
        let f = try TurnkeyFixture()
        let window = FakeAnchor(handle: "x11:2c00004")
        f.service.setPresentationAnchor(window)
        _ = try await f.signInWithDiscord()
        #expect(f.browser.parentWindows == ["x11:2c00004"])

        window.close() // the window is gone: nothing opens, the sign-in says why
        await #expect(throws: TurnkeySignInError.unavailable) { try await f.service.signIn(with: .discord) }
        #expect(f.browser.openedURLs.count == 1)
    }

    @Test func anotherSignInAddsASessionUnderTheNextFreeKey() async throws {
        let f = try TurnkeyFixture()
        #expect(try await f.signInWithDiscord().id == "default")
        #expect(try await f.signInWithDiscord(walletKit: false).id == "default-2")
        #expect(try await f.signInWithDiscord(walletKit: false).id == "default-3")
        #expect(Set(f.sessions.items.items.keys) == ["local-dev/default", "local-dev/default-2", "local-dev/default-3"])
    }

    @Test func sessionKeysAreNamedAfterTheConfiguredOneFillingGaps() {
        #expect(SessionKeyNaming.free(base: "default", taken: []) == "default")
        #expect(SessionKeyNaming.free(base: "default", taken: ["default"]) == "default-2")
        #expect(SessionKeyNaming.free(base: "default", taken: ["default", "default-2"]) == "default-3")
        #expect(SessionKeyNaming.free(base: "default", taken: ["default", "default-3"]) == "default-2")
        #expect(SessionKeyNaming.free(base: "work", taken: ["default", "default-2"]) == "work")
    }

    @Test func foreignAndUnknownCallbacksAreRefusedWithNothingSent() async throws {
        let f = try TurnkeyFixture()
        #expect(f.service.offer("other.app://?code=c&state=s") == .notMine)
        #expect(f.service.offer("io.github.portalauth.signin://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE") == .notMine)
        #expect(f.service.offer(TurnkeyFixture.codeCallback(state: "not-issued-here")) == .refuse(nil))
        #expect(f.service.offer("\(TurnkeyFixture.appRedirect)?error=access_denied&state=not-issued-here") == .ignore)
        #expect(f.transport.requests.isEmpty)
    }

    @Test func aProviderErrorForTheAwaitedSignInIsTakenByItAndEndsIt() async throws {
        let f = try TurnkeyFixture()
        f.transport.reply(TK.walletKit())
        let (task, callback) = try await f.startDiscordSignIn()
        let state = try #require(callback.split(separator: "=").last)
        #expect(f.service.offer("\(TurnkeyFixture.appRedirect)?error=access_denied&state=\(state)") == .taken)
        await #expect(throws: TurnkeyAuthError.providerError(.discord, error: "access_denied")) { try await task.value }
    }

    @Test func aRepeatedCallbackReplaysWithoutSpendingTheCodeAgain() async throws {
        let f = try TurnkeyFixture()
        f.replyDiscordLogin()
        let (task, callback) = try await f.startDiscordSignIn()
        #expect(f.service.offer(callback) == .taken)
        _ = try await task.value
        let repeated = f.service.offer(callback)
        #expect(repeated.summary == .exchange(.provider(.discord), .repeated))
        f.replyFacts()
        guard case .signedIn(let again) = try await f.service.complete(try #require(repeated.held)) else {
            throw TurnkeyFixture.Unexpected()
        }
        #expect(again.id == "default", "the repeat made another session")
        #expect(f.sent("oauth2_authenticate").count == 1 && f.sent("oauth_login").count == 1)
    }

    @Test func aSignInAnEarlierRunStartedIsAskedAboutThenFinishes() async throws {
        let earlier = try TurnkeyFixture()
        earlier.transport.reply(TK.walletKit())
        let (abandoned, callback) = try await earlier.startDiscordSignIn()
        // The app quit while it waited (`abandoned` is never resumed): its record stays in the keyring.

        let f = try TurnkeyFixture(sharing: earlier)
        #expect(f.service.offer(callback) == .refuse(nil), "known before the records were read")
        #expect(try await f.service.restore().isEmpty)
        let earlierRun = f.service.offer(callback)
        #expect(earlierRun.summary == .ask(.provider(.discord), .earlierRun))
        f.replyDiscordLogin(walletKit: false)
        guard case .signedIn(let account) = try await f.service.complete(try #require(earlierRun.held)) else {
            throw TurnkeyFixture.Unexpected()
        }
        #expect(account.id == "default" && account.provider == .discord)
        abandoned.cancel()
    }

    @Test func cancelEndsTheSignInAndLeavesNoRecordOrKey() async throws {
        let f = try TurnkeyFixture()
        f.transport.reply(TK.walletKit())
        let (task, callback) = try await f.startDiscordSignIn()
        f.service.cancelSignIn()
        await #expect(throws: TurnkeySignInError.closed) { try await task.value }
        #expect(await settled { f.pending.items.items.isEmpty && f.keys.items.items.isEmpty })
        #expect(f.service.offer(callback) == .refuse(nil))
    }

    @Test func twoRestoredAccountsAreListedAndSignOutRemovesOnlyOne() async throws {
        let f = try TurnkeyFixture()
        try f.storeSession("default")
        try f.storeSession("default-2")
        f.replyFacts()
        f.replyFacts()
        let accounts = try await f.service.restore()
        #expect(accounts.map(\.id) == ["default", "default-2"])
        #expect(accounts.map(\.title) == ["alice · Discord", "alice · Discord"])
        #expect(await settled { f.clock.sleeping == 2 }, "each session waits for its own refresh")
        try await f.service.signOut(accounts[0])
        #expect(Set(f.sessions.items.items.keys) == ["local-dev/default-2"])
        #expect(f.keys.items.items.count == 1)
        #expect(await settled { f.clock.sleeping == 1 }, "the signed-out session's refresh still waits")
    }

    @Test func theProfileNamesThePersonTheOrganizationAndTheProviderWithoutAskingTurnkeyAgain() async throws {
        let f = try TurnkeyFixture()
        try f.storeSession("default")
        f.replyFacts()
        let account = try #require(try await f.service.restore().first)
        let sent = f.transport.requests.count
        let profile = try await f.service.profile(of: account)
        #expect(profile.person == "alice")
        #expect(profile.organization == "sub-org-1800000000")
        #expect(profile.provider == .discord)
        #expect(profile.addresses == [], "an account without a wallet says so")
        #expect(
            f.transport.paths.dropFirst(sent) == ["/turnkey/api/public/v1/query/list_wallets"],
            "the facts fetched at restore were asked for again, or the wallets were not")
    }

    @Test func theProfileListsEveryWalletAccountsAddressByChain() async throws {
        let f = try TurnkeyFixture()
        try f.storeSession("default")
        f.replyFacts()
        f.transport.always("/query/list_wallets", #"{"wallets":[{"walletId":"w-1","walletName":"Default"}]}"#)
        func account(_ format: String, _ curve: String, _ address: String) -> String {
            #"{"walletAccountId":"a-\#(address)","walletId":"w-1","organizationId":"sub-org","address":"\#(address)","curve":"\#(curve)","pathFormat":"PATH_FORMAT_BIP32","path":"m/0","addressFormat":"\#(format)"}"#
        }
        f.transport.always(
            "/query/list_wallet_accounts",
            #"{"accounts":["# + account("ADDRESS_FORMAT_ETHEREUM", "CURVE_SECP256K1", "0xAbC0000000000000000000000000000000000001") + ","
                + account("ADDRESS_FORMAT_SOLANA", "CURVE_ED25519", "So1anaAddre55") + ","
                + account("ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH", "CURVE_SECP256K1", "bc1qexample") + "]}")
        let account = try #require(try await f.service.restore().first)
        let profile = try await f.service.profile(of: account)
        #expect(
            profile.addresses == [
                WalletAddress(chain: .evm, address: "0xAbC0000000000000000000000000000000000001"),
                WalletAddress(chain: .solana, address: "So1anaAddre55"),
                WalletAddress(chain: .other("bitcoin_mainnet_p2wpkh"), address: "bc1qexample")
            ])
    }

    @Test func aRestoredSessionTurnkeyRefusesIsForgottenAndReported() async throws {
        let f = try TurnkeyFixture()
        try f.storeSession("default")
        f.transport.reply(401, TK.error(16, "unauthenticated"))
        await #expect(throws: SessionEndedError.self) { try await f.service.restore() }
        #expect(f.sessions.items.items.isEmpty && f.keys.items.items.isEmpty)
    }

}
