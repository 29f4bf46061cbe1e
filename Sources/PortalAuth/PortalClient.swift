import FoundationEssentials
import Synchronization

/// Calls Portal with a session (`Authorization: Bearer <clientSessionToken>`); `Portal` is the
/// same with PortalSwift's names and main-actor handlers.
///
/// Its first 401 invalidates the session and fires each invalidation listener once; so does
/// `PortalSession.invalidate()`. A listener added after the session was invalidated is called once
/// right away. `clearSession()` ends the session without firing anything: the app asked for it.
/// Listeners run on the thread that ended the session (or the caller of `onSessionInvalidated`);
/// hop to your UI thread yourself.
public final class PortalClient: Sendable {
    private struct Listener {
        let handler: @Sendable () -> Void
        var fired = false
    }

    private struct State {
        var cleared = false
        var nextId = 0
        var listeners: [Int: Listener] = [:]
    }

    private let session: PortalSession
    private let api: PortalAPI
    private let state = Mutex(State())

    /// A client that calls Portal at `apiHost` with `session`'s token.
    ///
    /// - Throws: `PortalAuthError.invalidArgument(name:)` for a blank `authEnvironmentId` or a
    ///   bad `apiHost` (same rules as `PortalAuth`).
    public convenience init(session: PortalSession, apiHost: String, authEnvironmentId: String, transport: any HTTPTransport) throws {
        guard PortalAuth.isValidAuthEnvironmentId(authEnvironmentId) else {
            throw PortalAuthError.invalidArgument(name: "authEnvironmentId")
        }
        let baseURL = try ApiHost.baseURL(from: apiHost)
        self.init(session: session, api: PortalAPI(baseURL: baseURL, authEnvironmentId: authEnvironmentId.trimmed, transport: transport))
    }

    init(session: PortalSession, api: PortalAPI) {
        self.session = session
        self.api = api
        session.whenInvalidated { [weak self] in self?.fireListeners() }
    }

    /// `GET /api/v3/clients/me`. Throws `PortalCredentialError.sessionInvalidated` without a
    /// request once the session has ended, and `PortalRequestsError.unauthorized` when Portal
    /// no longer accepts it (which ends it).
    public func getClient() async throws -> ClientInfo {
        let token: String
        do {
            token = try session.getToken()
        } catch {
            fireListeners()
            throw error
        }
        let data: PortalWire.Client
        do {
            data = try await api.client(sessionToken: token)
        } catch PortalRequestsError.unauthorized {
            if !state.withLock({ $0.cleared }) {
                session.invalidate()
                fireListeners()
            }
            throw PortalRequestsError.unauthorized(path: PortalWire.Path.clientsMe)
        }
        guard let id = data.id, !id.isBlank else {
            throw PortalAuthError.malformedResponse(path: PortalWire.Path.clientsMe, missing: "id")
        }
        return ClientInfo(id: id, wire: data)
    }

    /// Calls `handler` once when the session ends: Portal rejected it (401), or it was invalidated.
    @discardableResult
    public func onSessionInvalidated(_ handler: @escaping @Sendable () -> Void) -> InvalidationSubscription {
        let id = state.withLock { state -> Int in
            state.nextId += 1
            state.listeners[state.nextId] = Listener(handler: handler)
            return state.nextId
        }
        let subscription = InvalidationSubscription { [weak self] in
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
        }
        if session.isInvalidated { fireListeners() }
        return subscription
    }

    /// Ends the session on purpose (sign-out). Never fires the listeners. The stored copy is deleted
    /// as `PortalSession.invalidate()` does; `PortalAuth.clearPersistedSession()` signs out fully.
    public func clearSession() {
        state.withLock { $0.cleared = true }
        session.invalidate()
    }

    /// Fires every listener that has not fired yet, outside the lock.
    private func fireListeners() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cleared else { return [] }
            var due: [@Sendable () -> Void] = []
            for (id, listener) in state.listeners.sorted(by: { $0.key < $1.key }) where !listener.fired {
                state.listeners[id]?.fired = true
                due.append(listener.handler)
            }
            return due
        }
        for handler in handlers { handler() }
    }
}

extension PortalAuth {
    /// A client for `session` on this instance's API host, environment and transport.
    public func client(for session: PortalSession) -> PortalClient {
        PortalClient(session: session, api: api)
    }
}

/// Stops an invalidation listener. `cancel()` may be called any number of times.
public final class InvalidationSubscription: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Mutex(onCancel)
    }

    /// Stops the listener; it is not called from then on. Idempotent.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }
}
