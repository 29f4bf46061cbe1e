import AuthBase
import Foundation

/// The per-run secret that the administration API asks for, as `Authorization: Bearer` only. Loopback
/// is shared by every user of the computer; only the user who started the emulator can read the file
/// it is written to, so only they (and their scripts) can read the outbox, the TOTP secrets or the
/// state, or change anything. It is never put in a URL or a cookie: the dashboard has its own key.
struct AdminToken {
    /// `pae_` and 43 base64url characters (32 random bytes): a shape `script/check-no-secrets` knows.
    static let prefix = "pae_"
    /// What `Authorization: Bearer` may carry: URL-safe characters.
    private static let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")

    let value: String

    static func random() -> AdminToken { AdminToken(value: prefix + Crypto.randomToken(bytes: 32)) }

    /// A token chosen by the script that starts the emulator (`PORTAL_AUTH_EMULATOR_ADMIN_TOKEN`).
    /// The error never repeats the value.
    static func chosen(_ text: String) throws -> AdminToken {
        guard (32...256).contains(text.count), text.allSatisfy(allowed.contains) else {
            throw TokenError(
                message: "PORTAL_AUTH_EMULATOR_ADMIN_TOKEN must be 32 to 256 characters from A-Z, a-z, 0-9, '-', '_', '.' and '~'")
        }
        return AdminToken(value: text)
    }

    /// Compares digests, so the time taken says nothing about how much of `candidate` was right.
    func matches(_ candidate: String?) -> Bool { Crypto.sameSecret(candidate, value) }

    struct TokenError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// Where the token is kept while the emulator runs: a file only its user can read.
enum AdminTokenFile {
    /// `$XDG_RUNTIME_DIR/portal-auth-emulator/PORT.token`, or under `~/.cache` without a runtime folder.
    static func defaultPath(port: UInt16, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            base = runtime
        } else {
            base = (environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()) + "/.cache"
        }
        return "\(base)/portal-auth-emulator/\(port).token"
    }

    /// Writes `token` to `path`, mode 0600, replacing any earlier file (never following a link). The
    /// default folder is made mode 0700 and must be this user's alone.
    static func write(_ token: AdminToken, to path: String, makeFolder: Bool) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if makeFolder {
            if mkdir(folder, 0o700) != 0 && errno == ENOENT {
                _ = mkdir((folder as NSString).deletingLastPathComponent, 0o700)
                _ = mkdir(folder, 0o700)
            }
            var info = stat()
            guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
                info.st_mode & 0o077 == 0
            else {
                throw AdminToken.TokenError(
                    message: "\(folder) must be a folder only you can use (mode 0700); choose another with --admin-token-file")
            }
        }
        if unlink(path) != 0 && errno != ENOENT {
            throw AdminToken.TokenError(message: "cannot replace \(path): \(String(cString: strerror(errno)))")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw AdminToken.TokenError(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let line = Array((token.value + "\n").utf8)
        guard fchmod(fd, 0o600) == 0, line.withUnsafeBytes({ Foundation.write(fd, $0.baseAddress, $0.count) }) == line.count else {
            unlink(path)
            throw AdminToken.TokenError(message: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the file at exit, unless another emulator has written its own token there since.
    static func remove(_ token: AdminToken, at path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            text.trimmingCharacters(in: .whitespacesAndNewlines) == token.value
        else { return }
        unlink(path)
    }
}
