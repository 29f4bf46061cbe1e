import Foundation

/// Keeps the state file in step with the emulator: read once at start, written after any request
/// that changed what is kept (and at shutdown), so a stop of any kind loses at most the request
/// that was running.
final class StateKeeper {
    let file: StateFile
    private var lastWritten: Data?
    private var reportedFailure = false

    /// Checks the file's folder and permissions and puts its saved state into `emulator`.
    init(file: StateFile, restoringInto emulator: Emulator) throws {
        self.file = file
        try file.prepare()
        if let saved = try file.read() {
            saved.restore(into: emulator)
        }
        lastWritten = Self.encode(SavedState(of: emulator))
        try file.write(lastWritten ?? Data())
    }

    /// Writes the state when it differs from what the file holds. A failure is told once on stderr;
    /// the emulator goes on serving.
    func save(_ emulator: Emulator) {
        let data = Self.encode(SavedState(of: emulator))
        guard data != lastWritten else { return }
        do {
            try file.write(data)
            lastWritten = data
            reportedFailure = false
        } catch {
            if !reportedFailure { FileHandle.standardError.write(Data("portal-auth-emulator: \(error)\n".utf8)) }
            reportedFailure = true
        }
    }

    private static func encode(_ state: SavedState) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(state)) ?? Data()
    }
}
