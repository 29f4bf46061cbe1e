import Foundation
import PortalAuth

/// Portal's PortalSessionStore in memory, which can be told to fail its next operations.
public final class InMemoryPortalSessionStore: PortalSessionStore, Sendable {
    public init() {}
    public struct State {
        public var secrets: [String: String] = [:]
        public var loadFailures: [any Error] = []
        public var saveFailures: [any Error] = []
        public var deleteFailures: [any Error] = []
        /// The next delete signals `arrived`, then waits for `release`.
        public var deleteGate: (arrived: Signal, release: Signal)?
        public var saves = 0
        public var loads = 0
        public var deletes = 0
        public var prepares = 0
    }

    public let state = Box(State())

    public func load(authEnvironmentId: String) async throws -> String? {
        try state.withLock { state in
            state.loads += 1
            if !state.loadFailures.isEmpty { throw state.loadFailures.removeFirst() }
            return state.secrets[authEnvironmentId]
        }
    }

    public func prepareToSave() {
        state.withLock { $0.prepares += 1 }
    }

    public func save(_ secret: String, authEnvironmentId: String) async throws {
        try state.withLock { state in
            state.saves += 1
            if !state.saveFailures.isEmpty { throw state.saveFailures.removeFirst() }
            state.secrets[authEnvironmentId] = secret
        }
    }

    public func delete(authEnvironmentId: String) async throws {
        let gate = state.withLock { state in
            defer { state.deleteGate = nil }
            return state.deleteGate
        }
        if let gate {
            gate.arrived.fire()
            await gate.release.wait()
        }
        try state.withLock { state in
            state.deletes += 1
            if !state.deleteFailures.isEmpty { throw state.deleteFailures.removeFirst() }
            state.secrets[authEnvironmentId] = nil
        }
    }

    public func failNextSave(_ error: any Error = SessionStoreError(.locked)) {
        state.withLock { $0.saveFailures.append(error) }
    }

    public func failNextLoad(_ error: any Error) {
        state.withLock { $0.loadFailures.append(error) }
    }

    public func holdNextDelete(arrived: Signal, release: Signal) {
        state.withLock { $0.deleteGate = (arrived, release) }
    }

    public func failNextDelete(_ error: any Error) {
        state.withLock { $0.deleteFailures.append(error) }
    }

    public func stored(_ environment: String = "local-dev") -> String? {
        state.withLock { $0.secrets[environment] }
    }

    public func put(_ secret: String, _ environment: String = "local-dev") {
        state.withLock { $0.secrets[environment] = secret }
    }

    public var isEmpty: Bool { state.withLock { $0.secrets.isEmpty } }
    public var saveCount: Int { state.withLock { $0.saves } }
    public var loadCount: Int { state.withLock { $0.loads } }
    public var deleteCount: Int { state.withLock { $0.deletes } }
    public var touched: Bool { state.withLock { $0.saves + $0.loads + $0.deletes > 0 } }
}
