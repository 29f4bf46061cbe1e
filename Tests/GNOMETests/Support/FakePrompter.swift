import Foundation

/// `fake-prompter.py` running on the test's session bus as gnome-keyring's unlock dialog
/// (org.gnome.keyring.SystemPrompter): it answers every prompt as dismissed, or with the
/// login keyring's password, and records each prompt it was asked to show.
final class FakePrompter {
    enum Mode: String { case dismiss, accept }

    struct StartError: Error, CustomStringConvertible { let description: String }

    private let process = Process()
    private let logPath: String
    private let passwordPath: String

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fake-prompter.py").path
    }

    init(_ mode: Mode) throws {
        let base = TestScratch.directory + "/fake-prompter-\(getpid())-\(UUID().uuidString)"
        logPath = base + ".log"
        passwordPath = base + ".password"
        guard FileManager.default.createFile(atPath: logPath, contents: Data()),
            FileManager.default.createFile(
                atPath: passwordPath, contents: Data(LoginKeyring.password.utf8),
                attributes: [.posixPermissions: 0o600])
        else {
            throw StartError(description: "the fake prompter's files could not be created in \(TestScratch.directory)")
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, mode.rawValue, passwordPath, logPath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ChildSignals.launchUnblocked(process)
        // Wait for "ready": only then does the bus name belong to the fake.
        var buffer = Data()
        let deadline = Date().addingTimeInterval(10)
        while !String(decoding: buffer, as: UTF8.self).contains("ready"), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += chunk
        }
        guard String(decoding: buffer, as: UTF8.self).contains("ready") else {
            stop()
            throw StartError(description: "the fake prompter did not take org.gnome.keyring.SystemPrompter")
        }
    }

    /// The type ("password" or "confirm") of each prompt the daemon asked for, in order.
    var promptsShown: [String] {
        (try? String(contentsOfFile: logPath, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// Ends the fake and waits, so the bus name is free again for the next test.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: logPath)
        try? FileManager.default.removeItem(atPath: passwordPath)
    }
}
