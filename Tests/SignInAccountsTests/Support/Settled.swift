/// Waits (bounded) until `condition` holds, for main-actor state that the services' tasks change.
@MainActor
func settled(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}
