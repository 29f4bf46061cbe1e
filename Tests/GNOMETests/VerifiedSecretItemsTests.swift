import AuthBase
import AuthTestSupport
import PortalAuthGNOME
import Testing

/// The rules every keyring store shares, against a scripted `SecretItems` (no daemon needed).
@Suite struct VerifiedSecretItemsTests {
    final class ScriptedItems: SecretItems, Sendable {
        struct State {
            var stored: [String: String] = [:]
            var dropWrites = false
            var keepAfterClear = false
            var locked = false
            /// Locked, the collection lists no items (as KeePassXC's), instead of listing them locked.
            var hidesItemsWhenLocked = false
            /// What the person does with the unlock prompt.
            var acceptsUnlock = false
            var prompts = 0
            var searches = 0
            var writes = 0
        }
        let state = Box(State())
        private static func key(_ attributes: [String: String]) -> String { attributes.sorted { $0.key < $1.key }.description }

        func lookup(_ attributes: [String: String]) async throws -> String? {
            state.withLock { $0.locked ? nil : $0.stored[Self.key(attributes)] }
        }
        func store(_ secret: String, label: String, attributes: [String: String]) async throws {
            state.withLock {
                $0.writes += 1
                if !$0.dropWrites && !$0.locked { $0.stored[Self.key(attributes)] = secret }
            }
        }
        func clear(_ attributes: [String: String]) async throws {
            state.withLock { if !$0.keepAfterClear { $0.stored[Self.key(attributes)] = nil } }
        }
        func search(_ attributes: [String: String]) async throws -> [SecretItemSummary] {
            state.withLock { state in
                state.searches += 1
                if state.locked && state.hidesItemsWhenLocked { return [] }
                return state.stored[Self.key(attributes)] == nil ? [] : [SecretItemSummary(attributes: attributes, isLocked: state.locked)]
            }
        }
        func defaultCollectionLock() async throws -> CollectionLock {
            state.withLock { $0.locked ? .locked(listsItems: !$0.hidesItemsWhenLocked) : .unlocked }
        }
        func unlockDefaultCollection() async throws -> Bool {
            state.withLock { state in
                state.prompts += 1
                if state.acceptsUnlock { state.locked = false }
                return !state.locked
            }
        }
    }

    /// KeePassXC: locked, it lists nothing, and every service-wide search raises its dialog again.
    static func hidingCollection(holding stored: [String: String] = [:], accepts: Bool) -> ScriptedItems {
        let scripted = ScriptedItems()
        scripted.state.withLock {
            $0.stored = stored
            $0.locked = true
            $0.hidesItemsWhenLocked = true
            $0.acceptsUnlock = accepts
        }
        return scripted
    }

    @Test func aCollectionHidingItsItemsIsUnlockedOnceBeforeAReadAndADismissedPromptSaysSo() async throws {
        let held = [#"[(key: "a", value: "1")]"#: "s"]
        let dismissed = Self.hidingCollection(holding: held, accepts: false)
        await #expect(throws: SessionStoreError(.dismissed)) { try await VerifiedSecretItems(dismissed).load(["a": "1"]) }
        let asked = dismissed.state.withLock { ($0.prompts, $0.searches) }
        #expect(asked == (1, 0), "one prompt, and no search that would raise it again")

        let accepted = Self.hidingCollection(holding: held, accepts: true)
        #expect(try await VerifiedSecretItems(accepted).load(["a": "1"]) == "s")
        #expect(try await VerifiedSecretItems(accepted).values(of: "a", where: [:]) == [])
        #expect(accepted.state.withLock { $0.prompts } == 1)
    }

    @Test func aSaveIntoALockedCollectionUnlocksFirstAndADismissedPromptWritesNothing() async throws {
        for hides in [false, true] {
            let scripted = Self.hidingCollection(accepts: false)
            scripted.state.withLock { $0.hidesItemsWhenLocked = hides }
            await #expect(throws: SessionStoreError(.dismissed)) {
                try await VerifiedSecretItems(scripted).save("s", label: "l", attributes: ["a": "1"])
            }
            await #expect(throws: SessionStoreError(.dismissed)) { try await VerifiedSecretItems(scripted).unlockForSave() }
            #expect(scripted.state.withLock { $0.writes } == 0, "a write was started into a collection that stayed locked")
        }
        let accepted = Self.hidingCollection(accepts: true)
        try await VerifiedSecretItems(accepted).save("s", label: "l", attributes: ["a": "1"])
        #expect(try await VerifiedSecretItems(accepted).load(["a": "1"]) == "s")
    }

    @Test func aDeleteBehindACollectionHidingItsItemsIsRefusedWithoutAPrompt() async throws {
        let scripted = Self.hidingCollection(holding: [#"[(key: "a", value: "1")]"#: "s"], accepts: true)
        await #expect(throws: SessionStoreError(.locked)) { try await VerifiedSecretItems(scripted).delete(["a": "1"]) }
        let asked = scripted.state.withLock { ($0.prompts, $0.searches, $0.stored.count) }
        #expect(asked == (0, 0, 1))
    }

    @Test func aWriteThatDoesNotReadBackIsNotKeptOrLocked() async throws {
        let scripted = ScriptedItems()
        let items = VerifiedSecretItems(scripted)
        scripted.state.withLock { $0.dropWrites = true }
        await #expect(throws: SessionStoreError(.notKept)) { try await items.save("s", label: "l", attributes: ["a": "1"]) }
        // Locked, the save asks to unlock first; the collection stays locked, so nothing is written.
        scripted.state.withLock { $0 = .init(stored: [#"[(key: "a", value: "1")]"#: "old"], dropWrites: true, locked: true) }
        await #expect(throws: SessionStoreError(.dismissed)) { try await items.save("s", label: "l", attributes: ["a": "1"]) }
        #expect(scripted.state.withLock { $0.writes } == 0)
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
