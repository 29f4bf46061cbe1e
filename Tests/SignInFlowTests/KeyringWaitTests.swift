import Foundation
import SignInFlow
import Testing

/// Without a keyring service nothing that would spend a grant starts: the "No keyring" page (the
/// advice, Try Again) stays until the service appears or Try Again finds it.
@MainActor
@Suite("Sign-in flow without a keyring", .timeLimit(.minutes(1)))
final class KeyringWaitTests {
    let service = FakeAccountService()
    let flow: SignInFlow
    let google = "io.github.portalauth.signin://auth/callback?token=pg_1&login_type=GOOGLE"

    init() {
        flow = SignInFlow(service: service, desktop: service)
    }

    isolated deinit {
        flow.windowClosed()
    }

    private func signInPage(waitingForKeyring: Bool) -> Page {
        .signIn(SignInPageState(providers: [.google, .apple], offersEmailLinks: true, busy: false, waitingForKeyring: waitingForKeyring))
    }

    private let noKeyringPage = Page.blocked(BlockedPageState(.noKeyring, message: "no keyring"))

    private func startedWithoutAKeyring() async {
        service.hasKeyring = false
        flow.start()
        #expect(await until { flow.page == noKeyringPage })
        #expect(flow.banner == nil, "a page says it, not a banner that can be dismissed")
    }

    @Test func withoutAKeyringTheSignInPageWaitsWithTheAdviceAndReadsNothing() async {
        await startedWithoutAKeyring()
        #expect(service.calls == [], "nothing may be read or sent without a keyring")
    }

    @Test func whileWaitingNeitherAProviderNorAnEmailLinkStarts() async {
        await startedWithoutAKeyring()
        flow.signIn(with: .google)
        flow.sendMagicLink(to: "alice@example.com")
        #expect(flow.page == noKeyringPage)
        await settleBriefly()
        #expect(service.calls == [])
    }

    @Test func theKeyringAppearingRestoresAndLetsSignInGoOn() async {
        await startedWithoutAKeyring()
        service.restoreResult = .success([])
        service.keyringAppears()
        #expect(await until { flow.page == signInPage(waitingForKeyring: false) })
        #expect(flow.banner == nil)
        #expect(service.calls == ["restore"])
        flow.signIn(with: .google)
        #expect(await until { service.isSignInRunning })
    }

    @Test func tryAgainChecksAgainAndGoesOnOnceTheKeyringIsThere() async {
        await startedWithoutAKeyring()
        var notices: [Notice] = []
        flow.onNotice = { notices.append($0) }
        flow.blockedAction()
        #expect(await until { notices == [.keyringStillMissing] }, "Try Again finding nothing says so")
        #expect(flow.page == noKeyringPage)
        #expect(service.calls == [])
        service.hasKeyring = true
        flow.blockedAction()
        #expect(await until { flow.page == signInPage(waitingForKeyring: false) })
        #expect(service.calls == ["restore"])
    }

    @Test func aRedirectWhileWaitingKeepsItsGrantUntilTheKeyringAppears() async {
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        service.completeResults[google] = .success(.signedIn(FakeAccountService.alice))
        service.hasKeyring = false
        flow.start(uris: [google])
        #expect(await until { flow.page == noKeyringPage })
        await settleBriefly()
        #expect(service.calls == [], "a redirect was exchanged without a keyring to keep its session")
        service.keyringAppears()
        #expect(await until { flow.page.isSignedIn })
        #expect(service.calls == ["restore", "complete(\(google))"])
    }

    @Test func aKeyringGoneBeforeASignInStopsItBeforeTheBrowserOpens() async {
        flow.start()
        #expect(await until { flow.page == signInPage(waitingForKeyring: false) })
        service.hasKeyring = false
        flow.signIn(with: .google)
        #expect(await until { flow.page == noKeyringPage })
        #expect(!service.calls.contains { $0.hasPrefix("signIn") })
    }

    @Test func aConfirmedLinkWithTheKeyringGoneIsNotExchangedAndIsAskedAgainOnceItIsBack() async {
        service.classifications[google] = .signIn(.provider(.google), .unsolicited)
        service.completeResults[google] = .success(.signedIn(FakeAccountService.alice))
        flow.start()
        #expect(await until { flow.page == signInPage(waitingForKeyring: false) })
        service.hasKeyring = false
        flow.receive(google)
        flow.continueConfirmed()
        #expect(await until { flow.page == noKeyringPage })
        #expect(!service.calls.contains { $0.hasPrefix("complete") })
        service.keyringAppears()
        #expect(await until { flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: nil)) })
        flow.continueConfirmed()
        #expect(await until { flow.page.isSignedIn })
        #expect(service.calls.filter { $0.hasPrefix("complete") } == ["complete(\(google))"])
    }

    @Test func aCodeIsNotVerifiedWithoutAKeyring() async {
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        let challenge = CodeChallenge(totpLink: nil, totpSecret: nil)
        service.completeResults[google] = .success(.needsCode(challenge))
        flow.start(uris: [google])
        #expect(await until { flow.page == .code(challenge, wrongCode: nil) })
        service.hasKeyring = false
        flow.submitCode("123456")
        #expect(await until { flow.page == noKeyringPage })
        #expect(!service.calls.contains { $0.hasPrefix("verify") })
        service.keyringAppears()
        #expect(await until { flow.page == .code(challenge, wrongCode: nil) }, "the code page came back with its challenge")
    }

    private func settleBriefly() async {
        for _ in 0..<50 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
    }
}

extension Page {
    fileprivate var isSignedIn: Bool {
        if case .signedIn = self { return true }
        return false
    }
}
