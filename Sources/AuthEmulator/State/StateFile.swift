import Foundation

/// The file `--state-file` names: what the emulator made (users, sessions, Turnkey sub-organizations)
/// kept across restarts, so an app that restores its session from the keyring finds it still
/// live. It holds TOTP secrets, so it is guarded as the admin token file is: written mode 0600
/// (a new file beside it, renamed over it, never through a link) in a folder only this user can
/// use, and a file or folder anyone else could read or change is refused rather than used.
struct StateFile {
    let path: String

    struct Refusal: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private var folder: String { (path as NSString).deletingLastPathComponent }

    /// Makes the folder (mode 0700) when missing, and checks that it, and the file if there is one,
    /// are this user's alone.
    func prepare() throws {
        if mkdir(folder, 0o700) != 0 && errno == ENOENT {
            try? FileManager.default.createDirectory(
                atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            _ = mkdir(folder, 0o700)
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0
        else {
            throw Refusal(message: "\(folder) must be a folder only you can use (mode 0700) to hold the state file")
        }
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
                throw Refusal(message: "\(path) must be a file only you can read and write (mode 0600); not using it")
            }
        }
    }

    /// The saved state, or nil when there is none yet.
    func read() throws -> SavedState? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Refusal(message: "cannot read \(path)")
        }
        do {
            return try JSONDecoder().decode(SavedState.self, from: data)
        } catch {
            throw Refusal(message: "\(path) is not a state file this emulator wrote (move it away, or start with script/run --reset)")
        }
    }

    /// Replaces the file with `data` in one step: a reader sees the old state or the new, never half.
    func write(_ data: Data) throws {
        let temporary = path + ".new"
        if unlink(temporary) != 0 && errno != ENOENT { throw failure("replace \(temporary)") }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("write \(temporary)") }
        let written = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        let synced = fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let refusal = failure("write \(path)")
            unlink(temporary)
            throw refusal
        }
    }

    private func failure(_ what: String) -> Refusal {
        Refusal(message: "cannot \(what): \(String(cString: strerror(errno)))")
    }
}
