import AuthBase
import AuthTestSupport
import AuthPlatform
import Testing

/// The rules every keyring store shares, against a scripted `SecretItems` (no daemon needed).
@Suite struct VerifiedSecretItemsTests {
    final class ScriptedItems: SecretItems, Sendable {
        struct State {
            var stored: [String: String] = [:]
            var dropWrites = false
            var keepAfterClear = false
            var locked = false
        }
        let state = Box(State())
        private static func key(_ attributes: [String: String]) -> String { attributes.sorted { $0.key < $1.key }.description }

        func lookup(_ attributes: [String: String]) async throws -> String? {
            state.withLock { $0.locked ? nil : $0.stored[Self.key(attributes)] }
        }
        func store(_ secret: String, label: String, attributes: [String: String]) async throws {
            state.withLock { if !$0.dropWrites { $0.stored[Self.key(attributes)] = secret } }
        }
        func clear(_ attributes: [String: String]) async throws {
            state.withLock { if !$0.keepAfterClear { $0.stored[Self.key(attributes)] = nil } }
        }
        func search(_ attributes: [String: String]) async throws -> [SecretItemSummary] {
            state.withLock { state in
                state.stored[Self.key(attributes)] == nil ? [] : [SecretItemSummary(attributes: attributes, isLocked: state.locked)]
            }
        }
    }

    @Test func aWriteThatDoesNotReadBackIsNotKeptOrLocked() async throws {
        let scripted = ScriptedItems()
        let items = VerifiedSecretItems(scripted)
        scripted.state.withLock { $0.dropWrites = true }
        await #expect(throws: SessionStoreError(.notKept)) { try await items.save("s", label: "l", attributes: ["a": "1"]) }
        scripted.state.withLock { $0 = .init(stored: [#"[(key: "a", value: "1")]"#: "old"], dropWrites: true, locked: true) }
        await #expect(throws: SessionStoreError(.locked)) { try await items.save("s", label: "l", attributes: ["a": "1"]) }
    }

    @Test func aLockedItemIsNeverReadAsNothingStored() async throws {
        let scripted = ScriptedItems()
        let items = VerifiedSecretItems(scripted)
        try await items.save("s", label: "l", attributes: ["a": "1"])
        #expect(try await items.load(["a": "1"]) == "s")
        scripted.state.withLock { $0.locked = true }
        await #expect(throws: SessionStoreError(.locked)) { try await items.load(["a": "1"]) }
        #expect(try await items.load(["a": "2"]) == nil)
    }

    @Test func aDeleteCountsOnlyOnceNothingIsLeft() async throws {
        let scripted = ScriptedItems()
        let items = VerifiedSecretItems(scripted)
        try await items.save("s", label: "l", attributes: ["a": "1"])
        scripted.state.withLock { $0.keepAfterClear = true }
        await #expect(throws: SessionStoreError(.notRemoved)) { try await items.delete(["a": "1"]) }
        scripted.state.withLock { $0.locked = true }
        await #expect(throws: SessionStoreError(.locked)) { try await items.delete(["a": "1"]) }
    }
}
