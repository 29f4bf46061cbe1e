import AuthBase
import Foundation

/// The dashboard's own per-run credential: the unguessable path `/dashboard/KEY/` the emulator prints
/// at start (and `GET /emulator/v1/dashboard` tells the admin token's holder). It is not the admin
/// token and never a cookie: a browser sends 127.0.0.1's cookies to every port of it, whoever serves
/// there, but a path it sends only where it is addressed. The key opens that one page and nothing
/// else; the admin API still asks for the admin token.
struct DashboardKey {
    /// `pad_` and 43 base64url characters (32 random bytes): a shape `script/check-no-secrets` knows.
    static let prefix = "pad_"
    /// Every path under it is the dashboard's: the right key shows it, any other is refused.
    static let pathPrefix = "/dashboard/"

    let value: String

    static func random() -> DashboardKey { DashboardKey(value: prefix + Crypto.randomToken(bytes: 32)) }

    /// `/dashboard/KEY/`: the one path that shows the dashboard.
    var path: String { Self.pathPrefix + value + "/" }

    /// Whether `path` is exactly `path`, compared as the admin token is (digests, in constant time).
    func opens(_ path: String) -> Bool { Crypto.sameSecret(path, self.path) }
}
