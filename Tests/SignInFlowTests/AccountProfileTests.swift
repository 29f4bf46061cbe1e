import Foundation
import SignInFlow
import Testing

/// The "Signed in" page's who, where and which wallets: fetched through the service after restore
/// and sign-in, a failure shown on the page without ending the session.
@MainActor
@Suite("Signed-in profile", .timeLimit(.minutes(1)))
final class AccountProfileTests {
    let service = FakeAccountService()
    let flow: SignInFlow
    let profile = AccountProfile(
        appName: "Demo Wallet", environment: "Testnet",
        addresses: [WalletAddress(chain: .evm, address: "0x1234567890abcdef1234567890abcdef12345678")])

    init() {
        flow = SignInFlow(service: service, desktop: service)
    }

    isolated deinit {
        flow.windowClosed()
    }

    private var shownProfile: ProfileLookup? {
        guard case .signedIn(let state) = flow.page else { return nil }
        return state.profile
    }

    @Test func aRestoredSessionShowsWhatTheServiceSaysOfTheAppAndItsWallets() async {
        service.restoreResult = .success([FakeAccountService.alice])
        service.profileResult = .success(profile)
        flow.start()
        #expect(await until { self.shownProfile == .loaded(self.profile) })
        #expect(service.profilesFetched == ["eu-alice"])
    }

    @Test func aSignInShowsTheProfileOfTheAccountItSignedIn() async {
        service.profileResult = .success(profile)
        service.verifyResult = .success(FakeAccountService.alice)
        flow.start()
        #expect(await until { if case .signIn = self.flow.page { true } else { false } })
        service.classifications["uri"] = .signIn(.provider(.google), .awaited)
        service.completeResults["uri"] = .success(.signedIn(FakeAccountService.alice))
        flow.receive("uri")
        #expect(await until { self.shownProfile == .loaded(self.profile) })
    }

    @Test func aProfileThatCannotBeFetchedIsSaidOnThePageAndTheSessionStays() async {
        service.restoreResult = .success([FakeAccountService.alice])
        service.profileResult = .failure(FakeAccountService.Closed())
        flow.start()
        #expect(await until { if case .failed = self.shownProfile { true } else { false } })
        #expect(!service.calls.contains("signOut(eu-alice)"))
        #expect(flow.banner == nil, "a failed lookup is said where the details would be, not as an alarm")

        service.profileResult = .success(profile)
        flow.reloadProfile()
        #expect(await until { self.shownProfile == .loaded(self.profile) })
        #expect(service.profilesFetched == ["eu-alice", "eu-alice"])
    }

    @Test func aLongAddressIsShortenedInTheMiddleAndAShortOneIsKept() {
        #expect(WalletAddress(chain: .evm, address: "0x1234567890abcdef1234567890abcdef12345678").shortened == "0x1234…5678")
        #expect(WalletAddress(chain: .solana, address: "So1ana").shortened == "So1ana")
    }
}
