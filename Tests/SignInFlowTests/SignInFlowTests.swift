import Foundation
import SignInFlow
import Testing

/// The sign-in window's state machine, driven like the window drives it, with a scripted service.
@MainActor
@Suite("Sign-in flow", .timeLimit(.minutes(1)))
final class SignInFlowTests {
    let service = FakeAccountService()
    let flow: SignInFlow
    let google = "io.github.portalauth.signin://auth/callback?token=pg_1&login_type=GOOGLE"
    let other = "io.github.portalauth.signin://auth/callback?token=pg_2&login_type=GOOGLE"
    let emailLink = "io.github.portalauth.signin://auth/callback?token=pg_3&authMethod=EMAIL_MAGIC_LINK"

    init() {
        flow = SignInFlow(service: service, desktop: service)
    }

    /// A test that ends with a sign-in still waiting closes the window, as the app would: otherwise
    /// the waiting task, the flow and the fake keep each other alive and AddressSanitizer's leak
    /// check (script/sanitize) reports them.
    isolated deinit {
        flow.windowClosed()
    }

    private var signInPage: Page {
        .signIn(SignInPageState(providers: [.google, .apple], offersEmailLinks: true, busy: false))
    }

    private func signedIn(
        _ account: SignedInAccount, among accounts: [SignedInAccount]? = nil, profile: ProfileLookup = .loaded(AccountProfile())
    ) -> Page {
        .signedIn(
            SignedInPageState(
                accounts: accounts ?? [account], current: account, canAddAccounts: service.keepsSeveralAccounts, profile: profile))
    }

    private func started() async {
        flow.start()
        #expect(await until { flow.page == signInPage })
    }

    private func waitingForGoogle() async {
        await started()
        flow.signIn(with: .google)
        #expect(await until { service.isSignInRunning })
        #expect(flow.page == .waitingForBrowser(provider: .google, pasteProblem: nil))
    }

    // MARK: start

    @Test func withoutASavedSessionTheSignInPageShowsTheProviders() async {
        await started()
        #expect(service.calls == ["restore"])
    }

    /// The status page is drawn before anything is asked: the network's and the keyring's libraries
    /// are opened on first use, and loading them must not hold up the window's first frame.
    @Test func nothingIsAskedOfTheNetworkOrTheKeyringBeforeTheFirstFrame() async {
        service.holdFirstFrame = true
        flow.start()
        for _ in 0..<50 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(flow.page == .loading)
        #expect(service.choicesAsked == 0, "the sign-in methods were asked before the first frame")
        #expect(service.keyringChecks == 0, "the keyring was asked for before the first frame")
        #expect(service.calls == [], "the keyring was read before the first frame")
        service.drawFirstFrame()
        #expect(await until { flow.page == signInPage })
        #expect(service.choicesAsked == 1)
        #expect(service.calls == ["restore"])
    }

    @Test func aSavedSessionShowsTheSignedInPage() async {
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
    }

    @Test func aFailedRestoreOffersToTryAgain() async {
        service.restoreResult = .failure(FakeAccountService.Refused())
        flow.start()
        #expect(await until { flow.page == signInPage })
        #expect(flow.banner?.nextStep == .tryAgain)
        service.restoreResult = .success([FakeAccountService.alice])
        flow.bannerAction()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
    }

    @Test func aURIReceivedWhileLoadingWaitsForTheRestore() async {
        service.classifications[google] = .signIn(.provider(.google), .unsolicited)
        flow.start()
        flow.receive(google)
        #expect(
            await until {
                flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: nil))
            })
        #expect(service.calls == ["restore"])
    }

    @Test func aColdStartByAStartedRedirectSignsInWithoutAsking() async {
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        service.completeResults[google] = .success(.signedIn(FakeAccountService.alice))
        flow.start(uris: [google])
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        #expect(service.calls == ["restore", "complete(\(google))"])
    }

    @Test func aRedirectOfASignInStartedBeforeARestartAsksAndSaysSo() async {
        service.classifications[google] = .signIn(.provider(.google), .earlierRun)
        service.completeResults[google] = .success(.signedIn(FakeAccountService.alice))
        flow.start(uris: [google])
        #expect(
            await until {
                flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: nil, startedBeforeRestart: true))
            })
        #expect(service.calls == ["restore"], "something was sent before the person chose")
        flow.continueConfirmed()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        #expect(service.calls == ["restore", "complete(\(google))"])
    }

    @Test func aRedirectOfAnEarlierRunIsNotTakenByTheWaitingSignIn() async {
        await waitingForGoogle()
        service.classifications[google] = .signIn(.provider(.google), .earlierRun)
        flow.submitPasted(google)
        #expect(flow.page == .waitingForBrowser(provider: .google, pasteProblem: .anotherSignIn))
        flow.receive(google)
        #expect(
            flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: nil, startedBeforeRestart: true)))
        #expect(!service.calls.contains("deliver(\(google))"))
    }

    // MARK: the browser sign-in

    @Test func theRedirectOfTheWaitingSignInIsHandedToItAndSignsIn() async {
        await waitingForGoogle()
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        flow.receive(google)
        #expect(flow.page == .completing)
        #expect(service.calls.last == "deliver(\(google))")
        service.answerSignIn(.success(.signedIn(FakeAccountService.alice)))
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
    }

    @Test func aSignInFinishedFromItsRedirectIsANoticeForAPersonInTheBrowser() async {
        var notices: [Notice] = []
        flow.onNotice = { notices.append($0) }
        await waitingForGoogle()
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        flow.receive(google)
        service.answerSignIn(.success(.signedIn(FakeAccountService.alice)))
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        #expect(notices == [.signInFinished(.signedIn(FakeAccountService.alice))])
    }

    @Test func aSignInFinishedWithoutARedirectFromTheDesktopIsNoNotice() async {
        var notices: [Notice] = []
        flow.onNotice = { notices.append($0) }
        await waitingForGoogle()
        // A loopback redirect reaches the core, not the window: the page never showed "completing".
        service.answerSignIn(.success(.signedIn(FakeAccountService.alice)))
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        #expect(notices.isEmpty)
    }

    // MARK: set-up

    @Test func linksHandedOverDuringSetUpWaitForTheServiceThatFollows() async {
        flow.setUp(backend: .turnkey, canSave: true)
        #expect(flow.page == .setUp(SetUpPageState(backend: .turnkey, canSave: true)))
        service.classifications[google] = .signIn(.provider(.google), .unsolicited)
        flow.receive(google)
        #expect(flow.page == .setUp(SetUpPageState(backend: .turnkey, canSave: true)), "the link left the set-up page")
        #expect(service.calls.isEmpty, "the unconfigured service was used")
        let configured = FakeAccountService()
        configured.classifications[google] = .signIn(.provider(.google), .unsolicited)
        flow.use(configured)
        #expect(await until { flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: nil)) })
        #expect(configured.calls == ["restore"])
        #expect(service.calls == ["cancelSignIn"])
    }

    @Test func aRedirectForAnotherProviderIsNotHandedToTheWaitingSignIn() async {
        await waitingForGoogle()
        // Even if the service calls it started, an Apple redirect cannot finish a Google sign-in (the
        // core would pass it over and the window would wait on "completing" for ever): the person decides.
        let apple = "io.github.portalauth.signin://auth/callback?token=pg_4&login_type=APPLE"
        service.classifications[apple] = .signIn(.provider(.apple), .awaited)
        flow.receive(apple)
        #expect(!service.calls.contains { $0.hasPrefix("deliver") })
        #expect(flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.apple), replacesAccount: nil)))
    }

    @Test func cancelEndsThePendingSignInAndShowsNoError() async {
        await waitingForGoogle()
        flow.cancelWaiting()
        #expect(flow.page == signInPage)
        #expect(service.calls.contains("cancelSignIn"))
        #expect(await until { !service.isSignInRunning })
        #expect(flow.banner == nil)
    }

    @Test func aRedirectAfterCancelAsksBeforeSigningIn() async {
        await waitingForGoogle()
        flow.cancelWaiting()
        // The core ended the record, so the late redirect is unsolicited.
        service.classifications[google] = .signIn(.provider(.google), .unsolicited)
        flow.receive(google)
        #expect(flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: nil)))
        #expect(!service.calls.contains { $0.hasPrefix("complete") || $0.hasPrefix("deliver") })
    }

    @Test func ignoreSendsNothingAndReturnsWhereThePersonWas() async {
        await started()
        service.classifications[google] = .signIn(.provider(.google), .unsolicited)
        var notices: [Notice] = []
        flow.onNotice = { notices.append($0) }
        flow.receive(google)
        flow.ignoreConfirmed()
        #expect(flow.page == signInPage)
        #expect(notices == [.redirectIgnored])
        #expect(!service.calls.contains { $0.hasPrefix("complete") })
    }

    @Test func continueExchangesTheConfirmedRedirect() async {
        await started()
        service.classifications[emailLink] = .signIn(.emailLink(email: nil), .unsolicited)
        service.completeResults[emailLink] = .success(.signedIn(FakeAccountService.bob))
        flow.receive(emailLink)
        flow.continueConfirmed()
        #expect(await until { flow.page == signedIn(FakeAccountService.bob) })
        #expect(service.calls.filter { $0.hasPrefix("complete") } == ["complete(\(emailLink))"])
    }

    @Test func cancelAfterTheRedirectArrivedIsTooLateAndTheSignInFinishes() async {
        await waitingForGoogle()
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        flow.receive(google)
        flow.cancelWaiting()
        #expect(flow.page == .completing)
        #expect(!service.calls.contains("cancelSignIn"))
        service.answerSignIn(.success(.signedIn(FakeAccountService.alice)))
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
    }

    @Test func twoDeliveriesOfOneRedirectAtOnceExchangeOnce() async {
        await waitingForGoogle()
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        flow.receive(google)
        flow.receive(google)
        #expect(service.calls.filter { $0.hasPrefix("deliver") }.count == 1)
        // Once finished, the second delivery is the same sign-in repeated: it replays, no question.
        service.classifications[google] = .signIn(.provider(.google), .repeated)
        service.completeResults[google] = .success(.signedIn(FakeAccountService.alice))
        service.answerSignIn(.success(.signedIn(FakeAccountService.alice)))
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) && service.calls.last == "complete(\(google))" })
        #expect(flow.page == signedIn(FakeAccountService.alice))
    }

    @Test func garbagePastedWhileWaitingShowsAnInlineErrorAndKeepsWaiting() async {
        await waitingForGoogle()
        flow.submitPasted("  definitely not a link  ")
        #expect(flow.page == .waitingForBrowser(provider: .google, pasteProblem: .notASignInLink))
        service.classifications[emailLink] = .signIn(.emailLink(email: nil), .unsolicited)
        flow.submitPasted(emailLink)
        #expect(flow.page == .waitingForBrowser(provider: .google, pasteProblem: .anotherSignIn))
        #expect(!service.calls.contains { $0.hasPrefix("deliver") })
        #expect(service.isSignInRunning)
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        flow.submitPasted(google)
        #expect(service.calls.last == "deliver(\(google))")
    }

    @Test func anUnsolicitedErrorRedirectIsDroppedQuietly() async {
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        service.classifications["io.github.portalauth.signin://auth/callback?error=oauth_failed"] = .failure(solicited: false)
        flow.receive("io.github.portalauth.signin://auth/callback?error=oauth_failed")
        #expect(flow.page == signedIn(FakeAccountService.alice))
        #expect(flow.banner == nil)
    }

    @Test func aFailedSignInShowsTheErrorWithTryAgain() async {
        await waitingForGoogle()
        service.answerSignIn(.failure(FakeAccountService.Refused()))
        #expect(await until { flow.page == signInPage })
        #expect(flow.banner?.nextStep == .tryAgain)
        flow.bannerAction()
        #expect(await until { service.calls.filter { $0 == "signIn(google)" }.count == 2 })
    }

    // MARK: signed in

    @Test func aRedirectWhileSignedInAsksBeforeReplacingTheAccount() async {
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        service.classifications[other] = .signIn(.provider(.google), .awaited)
        flow.receive(other)
        #expect(flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: FakeAccountService.alice)))
        flow.ignoreConfirmed()
        #expect(flow.page == signedIn(FakeAccountService.alice))
    }

    @Test func aRedirectDuringSignOutWaitsAndThenAsks() async {
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        service.holdSignOut = true
        flow.signOut()
        #expect(await until { service.calls.last == "signOut(eu-alice)" })
        service.classifications[google] = .signIn(.provider(.google), .unsolicited)
        flow.receive(google)
        #expect(flow.isSigningOut)
        #expect(flow.page == signedIn(FakeAccountService.alice), "nothing happens while the sign-out runs")
        service.releaseSignOut()
        #expect(
            await until {
                flow.page == .confirmRedirect(ConfirmRedirect(method: .provider(.google), replacesAccount: nil))
            })
        #expect(!service.calls.contains { $0.hasPrefix("complete") })
    }

    @Test func theEndedSessionShowsItsPageWhoseSignInAgainStartsASignIn() async {
        let google = SignedInAccount(id: "eu-alice", title: "eu-alice", details: [.endUser("eu-alice"), .provider(.google)])
        service.restoreResult = .success([google])
        flow.start()
        #expect(await until { flow.page == signedIn(google) })
        service.onAccountChange?(.ended(id: "eu-alice"))
        #expect(flow.page == .blocked(BlockedPageState(.sessionEnded(provider: .google), message: "session ended")))
        #expect(flow.banner == nil)
        flow.blockedAction()
        #expect(await until { service.isSignInRunning }, "Sign In Again did not start a sign-in")
        #expect(service.calls.last == "signIn(google)")
    }

    @Test func aLockedKeyringAtStartIsItsOwnPageAndUnlockReadsAgain() async {
        service.restoreResult = .failure(FakeAccountService.LockedKeyring())
        flow.start()
        #expect(await until { flow.page == .blocked(BlockedPageState(.keyringLocked, message: "keyring locked")) })
        #expect(flow.banner == nil)
        service.restoreResult = .success([FakeAccountService.alice])
        flow.blockedAction()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        #expect(service.calls == ["restore", "restore"])
    }

    @Test func aSignInCancelledAtTheProviderIsANoticeNotAnAlarm() async {
        var notices: [Notice] = []
        flow.onNotice = { notices.append($0) }
        await waitingForGoogle()
        service.answerSignIn(.failure(FakeAccountService.CancelledAtProvider()))
        #expect(await until { flow.page == signInPage })
        #expect(notices == [.signInCancelled])
        #expect(flow.banner == nil)
    }

    @Test func resendSendsAnotherLinkAndSaysSo() async {
        var notices: [Notice] = []
        flow.onNotice = { notices.append($0) }
        await started()
        flow.sendMagicLink(to: "alice@example.com")
        #expect(await until { flow.page == .emailSent(email: "alice@example.com") })
        flow.resendMagicLink()
        #expect(await until { notices == [.linkSent] })
        #expect(service.calls.filter { $0.hasPrefix("sendMagicLink") }.count == 2)
    }

    @Test func resendWaitsAsLongAsTheRateLimitSays() async {
        await started()
        flow.sendMagicLink(to: "alice@example.com")
        #expect(await until { flow.page == .emailSent(email: "alice@example.com") })
        service.sendResult = .failure(FakeAccountService.Refused())
        service.retryAfterSeconds = 3600
        flow.resendMagicLink()
        #expect(await until { !flow.canResend && flow.banner != nil })
        flow.resendMagicLink()
        await Task.yield()
        #expect(service.calls.filter { $0.hasPrefix("sendMagicLink") }.count == 2, "Resend asked again inside the wait")
    }

    // MARK: two-factor code and email link

    @Test func aWrongCodeStaysOnTheCodePage() async {
        await waitingForGoogle()
        let challenge = CodeChallenge(totpLink: nil, totpSecret: nil)
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        flow.receive(google)
        service.answerSignIn(.success(.needsCode(challenge)))
        #expect(await until { flow.page == .code(challenge, wrongCode: nil) })
        service.verifyResult = .failure(FakeAccountService.WrongCode())
        flow.submitCode("000000")
        #expect(await until { if case .code(_, let problem?) = flow.page { problem.kind == .wrongCode } else { false } })
        service.verifyResult = .success(FakeAccountService.alice)
        flow.submitCode("123456")
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
    }

    @Test func anEmailLinkThisAppSentSignsInWithoutAsking() async {
        await started()
        flow.sendMagicLink(to: "alice@example.com")
        #expect(await until { flow.page == .emailSent(email: "alice@example.com") })
        service.classifications[emailLink] = .signIn(.emailLink(email: "alice@example.com"), .awaited)
        service.completeResults[emailLink] = .success(.signedIn(FakeAccountService.alice))
        flow.receive(emailLink)
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
    }

    @Test func anotherAppOwningTheSchemeIsShownAndCanBeFixed() async {
        service.foreignHandler = "Evil Browser"
        await started()
        #expect(flow.foreignSchemeHandler == "Evil Browser")
        flow.claimSchemeHandler()
        #expect(flow.foreignSchemeHandler == nil)
        #expect(service.calls.contains("claimSchemeHandler"))
    }

    @Test func closingTheWindowEndsThePendingSignIn() async {
        await waitingForGoogle()
        flow.windowClosed()
        #expect(service.calls.contains("cancelSignIn"))
        #expect(await until { !service.isSignInRunning })
    }

    // MARK: several accounts (Turnkey's session keys)

    @Test func aNewSignInAddsAnAccountAndTheListSwitchesBetweenThem() async {
        service.keepsSeveralAccounts = true
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        flow.addAccount()
        guard case .signIn(let state) = flow.page else {
            Issue.record("not on the sign-in page")
            return
        }
        #expect(state.canGoBack)
        flow.signIn(with: .google)
        #expect(await until { service.isSignInRunning })
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        flow.receive(google)
        service.answerSignIn(.success(.signedIn(FakeAccountService.bob)))
        let both = [FakeAccountService.alice, FakeAccountService.bob]
        #expect(await until { flow.page == signedIn(FakeAccountService.bob, among: both) })
        flow.switchAccount(to: "eu-alice")
        #expect(flow.page == signedIn(FakeAccountService.alice, among: both))
    }

    @Test func signingOutOfOneAccountShowsTheNext() async {
        service.keepsSeveralAccounts = true
        service.restoreResult = .success([FakeAccountService.alice, FakeAccountService.bob])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice, among: [FakeAccountService.alice, FakeAccountService.bob]) })
        flow.signOut()
        #expect(await until { flow.page == signedIn(FakeAccountService.bob) })
        #expect(service.calls.contains("signOut(eu-alice)"))
    }

    @Test func backFromAddingAnAccountReturnsToTheAccounts() async {
        service.keepsSeveralAccounts = true
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        flow.addAccount()
        flow.backToAccounts()
        #expect(flow.page == signedIn(FakeAccountService.alice))
    }

    @Test func aStartedRedirectWhileSignedInAddsAnAccountWithoutAsking() async {
        service.keepsSeveralAccounts = true
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        service.classifications[google] = .signIn(.provider(.google), .awaited)
        service.completeResults[google] = .success(.signedIn(FakeAccountService.bob))
        flow.receive(google)
        #expect(await until { flow.page == signedIn(FakeAccountService.bob, among: [FakeAccountService.alice, FakeAccountService.bob]) })
    }

    @Test func aRefreshedSessionUpdatesThePage() async {
        service.restoreResult = .success([FakeAccountService.alice])
        flow.start()
        #expect(await until { flow.page == signedIn(FakeAccountService.alice) })
        let refreshed = SignedInAccount(
            id: "eu-alice", title: "eu-alice", details: [.sessionExpires(Date(timeIntervalSince1970: 2_000_000_000))])
        service.onAccountChange?(.updated(refreshed))
        #expect(flow.page == signedIn(refreshed))
    }

    @Test func aLinkThatCanNeverFinishHereIsRefusedWithAMessageAndNothingSent() async {
        await started()
        service.classifications["io.github.portalauth.signin://?code=c&state=forged"] = .refused(.provider(.discord))
        flow.receive("io.github.portalauth.signin://?code=c&state=forged")
        #expect(flow.page == signInPage)
        #expect(flow.banner?.message == "refused link")
        #expect(!service.calls.contains { $0.hasPrefix("complete") || $0.hasPrefix("deliver") })
    }
}
