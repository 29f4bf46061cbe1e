import Foundation
import AuthTestSupport
@testable import TurnkeyAuth

/// Secrets by name in memory, with failures a test can queue per operation.
final class InMemoryItems: Sendable {
    struct State {
        var items: [String: String] = [:]
        var failures: [String: [any Error]] = [:]
        var operations: [String] = []
    }

    let state = Box(State())

    func perform<T>(_ operation: String, _ body: (inout [String: String]) -> T) throws -> T {
        try state.withLock { state in
            state.operations.append(operation)
            if let error = state.failures[operation]?.first {
                state.failures[operation]?.removeFirst()
                throw error
            }
            return body(&state.items)
        }
    }

    func failNext(_ operation: String, _ error: any Error = SessionStoreError(.locked)) {
        state.withLock { $0.failures[operation, default: []].append(error) }
    }

    var items: [String: String] { state.withLock { $0.items } }
    var operations: [String] { state.withLock { $0.operations } }
    var writes: [String] { operations.filter { $0 == "save" || $0 == "delete" } }
    func put(_ name: String, _ value: String) { state.withLock { $0.items[name] = value } }
}

final class InMemorySessionStore: TurnkeySessionStore, Sendable {
    let items = InMemoryItems()
    static func name(_ configId: String, _ sessionKey: String) -> String { configId + "/" + sessionKey }

    func load(authProxyConfigId: String, sessionKey: String) async throws -> String? {
        try items.perform("load") { $0[Self.name(authProxyConfigId, sessionKey)] }
    }
    func save(_ jwt: String, authProxyConfigId: String, sessionKey: String) async throws {
        try items.perform("save") { $0[Self.name(authProxyConfigId, sessionKey)] = jwt }
    }
    func delete(authProxyConfigId: String, sessionKey: String) async throws {
        try items.perform("delete") { $0[Self.name(authProxyConfigId, sessionKey)] = nil }
    }
    func sessionKeys(authProxyConfigId: String) async throws -> [String] {
        try items.perform("list") { items in
            items.keys.filter { $0.hasPrefix(authProxyConfigId + "/") }.map { String($0.dropFirst(authProxyConfigId.count + 1)) }
        }
    }

    func jwt(_ sessionKey: String = "default", config: String = Fixture.configId) -> String? {
        items.items[Self.name(config, sessionKey)]
    }
}

final class InMemoryKeyStore: TurnkeyKeyStore, Sendable {
    let items = InMemoryItems()

    func load(publicKey: String) async throws -> String? { try items.perform("load") { $0[publicKey] } }
    func save(privateKey: String, publicKey: String) async throws { try items.perform("save") { $0[publicKey] = privateKey } }
    func delete(publicKey: String) async throws { try items.perform("delete") { $0[publicKey] = nil } }

    var publicKeys: Set<String> { Set(items.items.keys) }
}

final class InMemoryPendingStore: PendingSignInStore, Sendable {
    let items = InMemoryItems()
    static func name(_ configId: String, _ state: String) -> String { configId + "/" + state }

    func load(authProxyConfigId: String, state: String) async throws -> String? {
        try items.perform("load") { $0[Self.name(authProxyConfigId, state)] }
    }
    func save(_ record: String, authProxyConfigId: String, state: String) async throws {
        try items.perform("save") { $0[Self.name(authProxyConfigId, state)] = record }
    }
    func delete(authProxyConfigId: String, state: String) async throws {
        try items.perform("delete") { $0[Self.name(authProxyConfigId, state)] = nil }
    }
    func all(authProxyConfigId: String) async throws -> [String: String] {
        try items.perform("list") { items in
            Dictionary(uniqueKeysWithValues: items.filter { $0.key.hasPrefix(authProxyConfigId + "/") }
                .map { (String($0.key.dropFirst(authProxyConfigId.count + 1)), $0.value) })
        }
    }

    /// The decoded records, by state.
    var records: [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for (name, text) in items.items {
            let state = String(name.split(separator: "/", maxSplits: 1).last ?? "")
            result[state] = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        }
        return result
    }
}
