import Foundation
import TurnkeyAuth

/// Secrets by name in memory, with failures a test can queue per operation (the Turnkey stores' fakes).
public final class InMemoryItems: Sendable {
    public init() {}
    public struct State {
        public var items: [String: String] = [:]
        public var failures: [String: [any Error]] = [:]
        public var operations: [String] = []
    }

    public let state = Box(State())

    public func perform<T>(_ operation: String, _ body: (inout [String: String]) -> T) throws -> T {
        try state.withLock { state in
            state.operations.append(operation)
            if let error = state.failures[operation]?.first {
                state.failures[operation]?.removeFirst()
                throw error
            }
            return body(&state.items)
        }
    }

    public func failNext(_ operation: String, _ error: any Error = SessionStoreError(.locked)) {
        state.withLock { $0.failures[operation, default: []].append(error) }
    }

    public var items: [String: String] { state.withLock { $0.items } }
    public var operations: [String] { state.withLock { $0.operations } }
    public var writes: [String] { operations.filter { $0 == "save" || $0 == "delete" } }
    public func put(_ name: String, _ value: String) { state.withLock { $0.items[name] = value } }
}

public final class InMemoryTurnkeySessionStore: TurnkeySessionStore, Sendable {
    public init() {}
    public let items = InMemoryItems()
    public static func name(_ configId: String, _ sessionKey: String) -> String { configId + "/" + sessionKey }

    public func load(authProxyConfigId: String, sessionKey: String) async throws -> String? {
        try items.perform("load") { $0[Self.name(authProxyConfigId, sessionKey)] }
    }
    public func save(_ jwt: String, authProxyConfigId: String, sessionKey: String) async throws {
        try items.perform("save") { $0[Self.name(authProxyConfigId, sessionKey)] = jwt }
    }
    public func delete(authProxyConfigId: String, sessionKey: String) async throws {
        try items.perform("delete") { $0[Self.name(authProxyConfigId, sessionKey)] = nil }
    }
    public func sessionKeys(authProxyConfigId: String) async throws -> [String] {
        try items.perform("list") { items in
            items.keys.filter { $0.hasPrefix(authProxyConfigId + "/") }.map { String($0.dropFirst(authProxyConfigId.count + 1)) }
        }
    }

    public func jwt(_ sessionKey: String = "default", config: String = "local-dev") -> String? {
        items.items[Self.name(config, sessionKey)]
    }
}

public final class InMemoryKeyStore: TurnkeyKeyStore, Sendable {
    public init() {}
    public let items = InMemoryItems()

    public func load(publicKey: String) async throws -> String? { try items.perform("load") { $0[publicKey] } }
    public func save(privateKey: String, publicKey: String) async throws { try items.perform("save") { $0[publicKey] = privateKey } }
    public func delete(publicKey: String) async throws { try items.perform("delete") { $0[publicKey] = nil } }

    public var publicKeys: Set<String> { Set(items.items.keys) }
}

public final class InMemoryTurnkeyPendingSignInStore: TurnkeyPendingSignInStore, Sendable {
    public init() {}
    public let items = InMemoryItems()
    public static func name(_ configId: String, _ state: String) -> String { configId + "/" + state }

    public func load(authProxyConfigId: String, state: String) async throws -> String? {
        try items.perform("load") { $0[Self.name(authProxyConfigId, state)] }
    }
    public func save(_ record: String, authProxyConfigId: String, state: String) async throws {
        try items.perform("save") { $0[Self.name(authProxyConfigId, state)] = record }
    }
    public func delete(authProxyConfigId: String, state: String) async throws {
        try items.perform("delete") { $0[Self.name(authProxyConfigId, state)] = nil }
    }
    public func all(authProxyConfigId: String) async throws -> [String: String] {
        try items.perform("list") { items in
            Dictionary(
                uniqueKeysWithValues: items.filter { $0.key.hasPrefix(authProxyConfigId + "/") }
                    .map { (String($0.key.dropFirst(authProxyConfigId.count + 1)), $0.value) })
        }
    }

    /// The decoded records, by state.
    public var records: [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for (name, text) in items.items {
            let state = String(name.split(separator: "/", maxSplits: 1).last ?? "")
            result[state] = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        }
        return result
    }
}
