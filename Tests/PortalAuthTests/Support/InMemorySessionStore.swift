import Foundation
import AuthTestSupport
@testable import PortalAuth

/// A SessionStore in memory that can be told to fail its next operations.
final class InMemorySessionStore: SessionStore, Sendable {
    struct State {
        var secrets: [String: String] = [:]
        var loadFailures: [any Error] = []
        var saveFailures: [any Error] = []
        var deleteFailures: [any Error] = []
        /// The next delete signals `arrived`, then waits for `release`.
        var deleteGate: (arrived: Signal, release: Signal)?
        var saves = 0
        var loads = 0
        var deletes = 0
        var prepares = 0
    }

    let state = Box(State())

    func load(authEnvironmentId: String) async throws -> String? {
        try state.withLock { state in
            state.loads += 1
            if !state.loadFailures.isEmpty { throw state.loadFailures.removeFirst() }
            return state.secrets[authEnvironmentId]
        }
    }

    func prepareToSave() {
        state.withLock { $0.prepares += 1 }
    }

    func save(_ secret: String, authEnvironmentId: String) async throws {
        try state.withLock { state in
            state.saves += 1
            if !state.saveFailures.isEmpty { throw state.saveFailures.removeFirst() }
            state.secrets[authEnvironmentId] = secret
        }
    }

    func delete(authEnvironmentId: String) async throws {
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

    func failNextSave(_ error: any Error = SessionStoreError(.locked)) {
        state.withLock { $0.saveFailures.append(error) }
    }

    func failNextLoad(_ error: any Error) {
        state.withLock { $0.loadFailures.append(error) }
    }

    func holdNextDelete(arrived: Signal, release: Signal) {
        state.withLock { $0.deleteGate = (arrived, release) }
    }

    func failNextDelete(_ error: any Error) {
        state.withLock { $0.deleteFailures.append(error) }
    }

    func stored(_ environment: String = Fixture.environment) -> String? {
        state.withLock { $0.secrets[environment] }
    }

    func put(_ secret: String, _ environment: String = Fixture.environment) {
        state.withLock { $0.secrets[environment] = secret }
    }

    var isEmpty: Bool { state.withLock { $0.secrets.isEmpty } }
    var saveCount: Int { state.withLock { $0.saves } }
    var loadCount: Int { state.withLock { $0.loads } }
    var deleteCount: Int { state.withLock { $0.deletes } }
    var touched: Bool { state.withLock { $0.saves + $0.loads + $0.deletes > 0 } }
}
