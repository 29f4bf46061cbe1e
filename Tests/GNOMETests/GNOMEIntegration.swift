import Testing

/// Every suite that touches the shared emulator, the login keyring or the GLib loop thread nests
/// here, so they run one test at a time even when `swift test` runs suites in parallel.
@Suite(.serialized) enum GNOMEIntegration {}
