/// The hosts that never leave this machine, where plain `http` is allowed (the local emulator).
package enum Loopback {
    package static func isLoopbackHost(_ host: String) -> Bool {
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered == "127.0.0.1"
    }
}
