import AuthTestSupport
import Foundation
import Testing

@testable import TurnkeyAuth

@Suite("incoming callbacks: what the app may ask before anything is sent", .timeLimit(.minutes(1)))
struct IncomingCallbackTests {
    @Test func onlyTurnkeyCallbacksForThisAppAreRecognised() async throws {
        let f = try TurnkeyCoreFixture()
        #expect(f.auth.incomingCallback("io.github.portalauth.signin://auth/callback?token=\(Secrets.grant)&login_type=GOOGLE") == nil)
        #expect(f.auth.incomingCallback("other.app://?code=c&state=s") == nil)
        #expect(
            f.auth.incomingCallback(TurnkeyCoreFixture.codeCallback(state: "s1")) == TurnkeyIncomingCallback(state: "s1", isError: false))
        #expect(
            f.auth.incomingCallback(TurnkeyCoreFixture.appRedirect + "?error=access_denied&state=s2")
                == TurnkeyIncomingCallback(state: "s2", isError: true))
        #expect(f.transport.requests.isEmpty && f.pending.items.operations.isEmpty, "classifying sends and reads nothing")
    }

    @Test func pendingSignInsListTheLiveOnesWithTheirProvider() async throws {
        let f = try TurnkeyCoreFixture()
        let discord = try await f.startSignIn(.discord)
        f.advance(seconds: 1800)
        let x = try await f.startSignIn(.x)
        #expect(Set(try await f.auth.pendingSignIns().map(\.state)) == [discord.state, x.state])
        f.advance(seconds: 1801)
        #expect(
            try await f.auth.pendingSignIns() == [TurnkeyPendingSignIn(state: x.state, provider: .x)],
            "the Discord sign-in is more than an hour old")
    }

    @Test func onlyTheInstanceThatStartedASignInAwaitsIt() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let callback = TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(for: login.publicKey), state: login.state)
        #expect(
            f.auth.incomingCallback(callback)
                == TurnkeyIncomingCallback(
                    state: login.state, isError: false, provider: .google,
                    standing: .awaited))
        #expect(f.auth.offer(callback)?.standing == .awaited)
        #expect(f.auth.offer(callback)?.isTaken == false, "taken with no browser sign-in running")
        #expect(
            f.auth.incomingCallback(TurnkeyCoreFixture.codeCallback(state: "not-issued"))
                == TurnkeyIncomingCallback(state: "not-issued", isError: false, provider: nil, standing: .unsolicited))

        // The app quit, was killed or crashed while it waited: the next run finds the stored record
        // but did not start that sign-in. It knows the record once it has read the pending sign-ins.
        let restarted = try f.restarted()
        #expect(restarted.incomingCallback(callback)?.provider == nil)
        #expect(try await restarted.pendingSignIns() == [TurnkeyPendingSignIn(state: login.state, provider: .google)])
        #expect(
            restarted.incomingCallback(callback)
                == TurnkeyIncomingCallback(
                    state: login.state, isError: false, provider: .google,
                    standing: .earlierRun))
    }

    @Test func aCancelledSignInIsNoLongerAwaited() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.discord)
        try await f.auth.cancelSignIn(state: login.state)
        #expect(f.auth.incomingCallback(TurnkeyCoreFixture.codeCallback(state: login.state))?.standing == .unsolicited)
        #expect(f.auth.incomingCallback(TurnkeyCoreFixture.codeCallback(state: login.state))?.provider == nil)
    }

    @Test func anotherProcessStillFinishesAStoredSignIn() async throws {
        // `login-url` in one process, `handle-redirect` in another: the CLI's documented way.
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        let restarted = try f.restarted()
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        let result = try await restarted.handleRedirect(
            TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(for: login.publicKey), state: login.state))
        #expect(result?.completed != nil)
    }

    @Test func aCancelledSignInLosesItsKeyAndItsCallbackIsThenRefused() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.discord)
        try await f.auth.cancelSignIn(state: login.state)
        #expect(f.pending.items.items.isEmpty && f.keys.publicKeys.isEmpty)
        try await f.auth.cancelSignIn(state: login.state) // nothing left to end: not an error
        let sent = f.transport.requests.count
        await #expect(throws: TurnkeyAuthError.unknownState) {
            try await f.auth.handleRedirect(TurnkeyCoreFixture.codeCallback(state: login.state))
        }
        #expect(f.transport.requests.count == sent, "nothing sent for the cancelled state")
    }

    @Test func aFinishedStateIsReportedSoTheAppKnowsARepeatSendsNothing() async throws {
        let f = try TurnkeyCoreFixture()
        let login = try await f.startSignIn(.google)
        #expect(!f.auth.hasFinished(state: login.state))
        f.transport.reply(TK.account("sub-org-1"))
        f.transport.reply(TK.session(TK.sessionJwt(publicKey: login.publicKey)))
        let callback = TurnkeyCoreFixture.idTokenCallback(TK.oidcToken(for: login.publicKey), state: login.state)
        _ = try await f.auth.handleRedirect(callback)
        #expect(f.auth.hasFinished(state: login.state))
        #expect(
            f.auth.incomingCallback(callback)
                == TurnkeyIncomingCallback(
                    state: login.state, isError: false, provider: .google,
                    standing: .repeated))
        let sent = f.transport.requests.count
        _ = try await f.auth.handleRedirect(callback)
        #expect(f.transport.requests.count == sent, "the repeat replays the result")
    }
}
