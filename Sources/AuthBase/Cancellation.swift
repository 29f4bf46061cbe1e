/// Runs `body` in a task of its own so that cancelling the caller after an exchange began cannot
/// abort it: the server spends a single-use grant or code before it answers, so an aborted request
/// would strand a session that exists everywhere but here.
package func shieldedFromCancellation<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task { try await body() }.value
}
