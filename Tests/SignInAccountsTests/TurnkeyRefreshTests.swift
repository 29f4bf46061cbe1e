import AuthBase
import AuthTestSupport
import Foundation
import SignInFlow
import Testing
import TurnkeyAuth

@testable import SignInAccounts

@MainActor
@Suite("Turnkey sessions renew before they expire, on a test clock", .timeLimit(.minutes(1)))
struct TurnkeyRefreshTests {
    /// stamp_login answered with a session for the new key the request names, lasting `lifetime` from `clock`.
    private func replyRefresh(_ f: TurnkeyFixture, lifetime: TimeInterval = 900) {
        let clock = f.clock
        f.transport.enqueue(
            .answer { request in
                let parameters = request.jsonBody["parameters"] as? [String: Any]
                let jwt = TK.sessionJwt(
                    publicKey: parameters?["publicKey"] as? String ?? "",
                    expiresAt: clock.now.addingTimeInterval(lifetime))
                return (200, TK.activity(session: jwt))
            })
    }

    @Test func aSessionIsRenewedOnANewKeyAThirdOfItsLifeBeforeItExpires() async throws {
        let f = try TurnkeyFixture()
        let updates = Box<[SignedInAccount]>([])
        f.service.onAccountChange = { change in
            if case .updated(let account) = change { updates.withLock { $0.append(account) } }
        }
        let account = try await f.signInWithDiscord()
        let firstJwt = f.sessions.jwt("default")
        #expect(await f.refreshesWaiting())
        #expect(f.clock.requestedSleeps == [600], "900 s of life, renewed with 300 s left")

        f.clock.advance(seconds: 599)
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(f.sent("stamp_login").isEmpty, "renewed before its time")

        replyRefresh(f)
        f.clock.advance(seconds: 1)
        #expect(await settled { updates.current.count == 1 })
        #expect(f.sent("stamp_login").count == 1)
        #expect(f.clock.now < TK.start.addingTimeInterval(900), "the refresh came after the session expired")
        #expect(f.sessions.jwt("default") != firstJwt, "the renewed session was not stored")
        #expect(f.keys.items.items.count == 1, "the old key outlived the refresh")

        let renewed = try #require(updates.current.first)
        #expect(renewed.id == account.id && renewed.title == account.title, "a refresh changed who the account is")
        #expect(renewed.details.last == .sessionExpires(TK.start.addingTimeInterval(600 + 900)))
        #expect(f.sent("whoami").count == 1 && f.sent("get_user").count == 1, "the facts were fetched again")
        #expect(await settled { f.clock.requestedSleeps == [600, 600] }, "the renewed session is not scheduled")
    }

    @Test func theEnvironmentsMarginOverridesTheThird() async throws {
        let f = try TurnkeyFixture(policy: RefreshPolicy(environment: ["PORTAL_TURNKEY_REFRESH_AT": "35"]))
        try await f.signInWithDiscord()
        #expect(await f.refreshesWaiting())
        #expect(f.clock.requestedSleeps == [865])
        #expect(RefreshPolicy(environment: ["PORTAL_TURNKEY_REFRESH_AT": "-3"]).secondsBeforeExpiry == nil)
        #expect(RefreshPolicy().delay(until: TK.start.addingTimeInterval(9), now: TK.start) == 4, "at least 5 s before expiry")
        #expect(RefreshPolicy().delay(until: TK.start, now: TK.start.addingTimeInterval(10)) == 0)
    }

    @Test func aRefusedRefreshEndsTheSessionAndTheFlowSaysSo() async throws {
        let f = try TurnkeyFixture()
        try f.storeSession("default")
        f.transport.reply(TK.walletKit()) // the sign-in page's providers
        f.replyFacts()
        let desktop = FakeDesktop()
        let flow = SignInFlow(service: f.service, desktop: desktop)
        flow.start()
        #expect(await settled { if case .signedIn = flow.page { true } else { false } })

        f.transport.reply(401, TK.error(16, "session expired"))
        #expect(await f.refreshesWaiting())
        f.clock.advance(seconds: 600)
        #expect(
            await settled {
                if case .blocked(let state) = flow.page, case .sessionEnded(.discord) = state.blocker { true } else { false }
            })
        #expect(desktop.described.last?.backend == .turnkey, "the words were not the Turnkey backend's")
        #expect(f.sent("stamp_login").count == 1)
        #expect(f.sessions.items.items.isEmpty && f.keys.items.items.isEmpty, "the refused session is still kept")
    }

    @Test func aRefreshThatFailsOnTheNetworkIsTriedAgainWhileTheSessionLasts() async throws {
        let f = try TurnkeyFixture()
        try await f.signInWithDiscord()
        f.transport.enqueue(.fail(TransportError(.timedOut, host: "127.0.0.1", detail: "timed out")))
        #expect(await f.refreshesWaiting())
        f.clock.advance(seconds: 600)
        #expect(await settled { f.clock.requestedSleeps == [600, RefreshPolicy.retrySeconds] })
        #expect(f.sessions.jwt("default") != nil, "a network failure ended the session")

        replyRefresh(f)
        #expect(await f.refreshesWaiting())
        f.clock.advance(seconds: RefreshPolicy.retrySeconds)
        #expect(await settled { f.sent("stamp_login").count == 2 })
        #expect(await settled { f.clock.requestedSleeps.count == 3 })
    }

    @Test func signingOutStopsTheRefresh() async throws {
        let f = try TurnkeyFixture()
        let account = try await f.signInWithDiscord()
        #expect(await f.refreshesWaiting())
        try await f.service.signOut(account)
        #expect(await settled { f.clock.sleeping == 0 })
        f.clock.advance(seconds: 900)
        try await Task.sleep(nanoseconds: 20_000_000)
        #expect(f.sent("stamp_login").isEmpty)
    }
}
