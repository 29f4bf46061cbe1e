import Foundation

/// Reads the keyring the way a person's tools do (`secret-tool` from libsecret-tools),
/// independently of the code under test. Values are returned for comparison, never printed.
/// Attributes follow "--": a value that starts with "-" (a random state can) must not read as an option.
enum SecretTool {
    static func lookup(authEnvironmentId: String, sessionKey: String) -> String? {
        let result = Subprocess.run(
            "/usr/bin/secret-tool",
            ["lookup", "--", "auth-environment-id", authEnvironmentId, "session-key", sessionKey])
        return result.status == 0 ? result.stdout : nil
    }

    /// `secret-tool search --all` output for matching items (attributes and labels, secrets hidden).
    static func searchOutput(authEnvironmentId: String, sessionKey: String) -> String {
        Subprocess.run(
            "/usr/bin/secret-tool",
            ["search", "--all", "--", "auth-environment-id", authEnvironmentId, "session-key", sessionKey]
        ).stdout
            + Subprocess.run(
                "/usr/bin/secret-tool",
                ["search", "--all", "--", "auth-environment-id", authEnvironmentId, "session-key", sessionKey]
            ).stderr
    }

    static func count(authEnvironmentId: String, sessionKey: String) -> Int {
        searchOutput(authEnvironmentId: authEnvironmentId, sessionKey: sessionKey)
            .split(separator: "\n").filter { $0.hasPrefix("label = ") }.count
    }

    static func label(authEnvironmentId: String, sessionKey: String) -> String? {
        searchOutput(authEnvironmentId: authEnvironmentId, sessionKey: sessionKey)
            .split(separator: "\n").first { $0.hasPrefix("label = ") }
            .map { String($0.dropFirst("label = ".count)) }
    }
}

extension SecretTool {
    /// The secret of the item matching `attributes` (any schema), or nil.
    static func lookup(_ attributes: [String: String]) -> String? {
        let result = Subprocess.run(
            "/usr/bin/secret-tool", ["lookup", "--"] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] })
        return result.status == 0 ? result.stdout : nil
    }

    /// The labels of every item matching `attributes`, secrets never read.
    static func labels(_ attributes: [String: String]) -> [String] {
        let arguments = ["search", "--all", "--"] + attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        let result = Subprocess.run("/usr/bin/secret-tool", arguments)
        return (result.stdout + result.stderr).split(separator: "\n").filter { $0.hasPrefix("label = ") }
            .map { String($0.dropFirst("label = ".count)) }.sorted()
    }

    /// How many items match `attributes`.
    static func count(_ attributes: [String: String]) -> Int { labels(attributes).count }
}
