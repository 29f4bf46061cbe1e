import Testing

@testable import TurnkeyAuth

@Suite("Replay memory: how far a callback got, by state")
struct ReplayMemoryTests {
    @Test func statesCompareByteForByte() {
        // U+212A KELVIN SIGN is canonically equivalent to "K", so Swift's == calls these states equal;
        // a forged state spelled that way must not pick up another sign-in's progress.
        let memory = ReplayMemory()
        let success = OAuthSuccess(oidcToken: "token", providerName: "google", publicKey: "02ab")
        memory.remember(.oidcToken(success), for: "stateK1")
        #expect(memory.progress(for: "stateK1") != nil)
        #expect(memory.progress(for: "state\u{212A}1") == nil)
    }
}
