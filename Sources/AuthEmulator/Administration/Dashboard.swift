import Foundation

/// `GET /dashboard/KEY/` (or `/` with the admin token): what the emulator holds, for a person.
/// Refreshes itself every 5 seconds (no JavaScript), at the address it was opened at.
extension Administration {
    func dashboard(_ request: EmulatorRequest) -> EmulatorResponse {
        let step = Totp.step(at: now)
        let secondsLeft = Totp.period - now % Totp.period
        let userRows = portal.users.ordered.map { user -> String in
            let code =
                user.needsTotp
                ? "<code class=\"totp\">\(Totp.code(secret: user.totpSecret, step: step))</code> <small>\(secondsLeft)s</small>"
                : "<span class=\"muted\">—</span>"
            let liveSessions = portal.sessions.all.filter { $0.endUserId == user.endUserId && $0.environmentId == user.environmentId }.count
            let addresses =
                ClientWallets.of(user).map {
                    "EVM <code>\(Html.escape($0.evmAddress))</code><br>Solana <code>\(Html.escape($0.solanaAddress))</code>"
                } ?? "<span class=\"muted\">No wallet</span>"
            return "<tr><td>\(Html.escape(user.email))</td><td>\(Html.escape(user.environmentId))</td>"
                + "<td><code>\(Html.escape(user.endUserId))</code></td><td>\(addresses)</td><td>\(code)</td><td>\(liveSessions)</td></tr>"
        }.joined(separator: "\n")
        let mailRows = portal.outbox.messages.reversed().map { message in
            "<tr><td>\(Html.escape(Self.isoDate(message.sentAt)))</td><td>\(Html.escape(message.email))</td>"
                + "<td><a href=\"\(Html.escape(message.link))\">Open magic link</a></td></tr>"
        }.joined(separator: "\n")
        let requestRows = requests.entries.suffix(15).reversed().map { entry in
            "<tr><td>\(Html.escape(entry.method))</td><td><code>\(Html.escape(entry.path))</code></td>"
                + "<td>\(entry.status == 0 ? "dropped" : String(entry.status))</td></tr>"
        }.joined(separator: "\n")
        let environmentRows = portal.environments.map { environment in
            "<tr><td><code>\(Html.escape(environment.id))</code></td><td>\(Html.escape(environment.name))</td>"
                + "<td>\(Html.escape(environment.appName))</td><td>\(Html.escape(environment.authMethods.map(\.rawValue).joined(separator: ", ")))</td>"
                + "<td>\(environment.redirectUrls.map { "<code>\(Html.escape($0))</code>" }.joined(separator: "<br>"))</td></tr>"
        }.joined(separator: "\n")
        let clockNote = context.clock.advancedSeconds > 0 ? " (clock advanced by \(Int(context.clock.advancedSeconds)) s)" : ""
        let body = """
            <main class="wide">
            <p class="banner">Local test environment — portal-auth-emulator, not Portal</p>
            <h1>Portal auth emulator</h1>
            <p class="sub">Listening on <code>\(Html.escape(baseURL))</code>. Emulator time \(Html.escape(Self.isoDate(context.clock.now)))\(Html.escape(clockNote)). This page refreshes every 5 seconds.</p>
            <h2>Environments</h2>
            <table><tr><th>ID</th><th>Name</th><th>App</th><th>Sign-in methods</th><th>Allowed redirect URLs</th></tr>
            \(environmentRows)
            </table>
            <h2>Users</h2>
            <table><tr><th>Email</th><th>Environment</th><th>End user ID</th><th>Wallet addresses</th><th>Current TOTP code</th><th>Sessions</th></tr>
            \(userRows)
            </table>
            <h2>Magic-link outbox</h2>
            \(mailRows.isEmpty ? "<p class=\"muted\">No magic links sent yet.</p>" : "<table><tr><th>Sent</th><th>To</th><th>Link</th></tr>\n\(mailRows)\n</table>")
            \(turnkeyDashboardSections())
            <h2>Recent requests</h2>
            \(requestRows.isEmpty ? "<p class=\"muted\">No requests yet.</p>" : "<table><tr><th>Method</th><th>Path</th><th>Status</th></tr>\n\(requestRows)\n</table>")
            </main>
            """
        var response = EmulatorResponse.html(
            200, Html.page(title: "Portal auth emulator", style: Self.dashboardStyle, body: body, refreshSeconds: 5))
        // The address holds the key: a link followed from the page (a magic link) must not carry it
        // away as its Referer.
        response.headers.append(("Referrer-Policy", "no-referrer"))
        return response
    }

    private static let dashboardStyle = """
        body{align-items:flex-start}
        .wide{width:min(980px,96vw);margin:28px 0;background:#fff;border-radius:14px;padding:24px 32px;
          box-shadow:0 1px 3px rgba(0,0,0,.12)}
        .wide .banner{margin:0 0 12px}
        h2{font-size:17px;font-weight:600;margin:24px 0 8px}
        table{width:100%;border-collapse:collapse;font-size:14px}
        th,td{text-align:left;padding:7px 8px;border-bottom:1px solid #e3e3e3;vertical-align:top}
        th{color:#5f6368;font-weight:500}
        code{font:13px ui-monospace,"DejaVu Sans Mono",monospace}
        .totp{font-size:16px;font-weight:700;letter-spacing:2px;color:#0b57d0}
        .muted{color:#80868b}
        """
}
