import Foundation

/// What every suite here starts from: its own emulator on a free port, a client for it that holds
/// the admin token, and the emulator stopped when the suite instance (one per test) goes away.
class EmulatorSuite {
    let emulator: EmulatorProcess
    let client: EmulatorClient

    init() throws {
        emulator = try EmulatorProcess()
        client = EmulatorClient(baseURL: emulator.baseURL, adminToken: emulator.adminToken)
    }

    deinit { emulator.stop() }
}
