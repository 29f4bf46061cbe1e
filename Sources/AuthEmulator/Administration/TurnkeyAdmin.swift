import AuthBase
import Foundation

/// Turnkey in the administration API (`GET /emulator/v1/turnkey`) and on the dashboard: configs,
/// sub-organizations, users and live sessions. Never a token, code or private key.
extension Administration {
    func adminTurnkey(_ request: EmulatorRequest) -> EmulatorResponse {
        let configs: [[String: Any]] = turnkey.config.authProxyConfigs.map { config in
            [
                "id": config.id, "organizationId": config.organizationId, "organizationName": config.organizationName,
                "enabledProviders": config.enabledProviders.map(\.rawValue),
                "sessionExpirationSeconds": config.sessionExpirationSeconds,
                "clients": config.clients.map { entry -> [String: Any] in
                    [
                        "provider": entry.provider.rawValue, "clientId": entry.client.clientId,
                        "secondaryClientIds": entry.client.secondaryClientIds,
                        "redirectUris": identityProviders.allowedRedirectUris(entry.client)
                    ]
                }
            ]
        }
        let organizations: [[String: Any]] = turnkey.directory.organizations.map {
            [
                "organizationId": $0.organizationId, "organizationName": $0.organizationName,
                "parentOrganizationId": $0.parentOrganizationId, "authProxyConfigId": $0.authProxyConfigId,
                "userIds": [$0.user.userId], "createdAt": $0.createdAt,
                "wallets": $0.wallets.map { wallet in
                    [
                        "walletId": wallet.walletId, "walletName": wallet.walletName,
                        "accounts": wallet.accounts.map {
                            ["curve": $0.curve, "path": $0.path, "addressFormat": $0.addressFormat, "address": $0.address]
                        }
                    ] as [String: Any]
                }
            ]
        }
        let users: [[String: Any]] = turnkey.directory.organizations.map { organization in
            let user = organization.user
            var entry: [String: Any] = [
                "userId": user.userId, "organizationId": organization.organizationId, "userName": user.userName,
                "oauthProviders": user.oauthProviders.map {
                    ["providerName": $0.providerName, "issuer": $0.issuer, "audience": $0.audience, "subject": $0.subject]
                }
            ]
            if let email = user.userEmail { entry["userEmail"] = email }
            return entry
        }
        let sessions: [[String: Any]] = turnkey.directory.liveSessions(now: now).map {
            [
                "publicKey": $0.publicKey, "organizationId": $0.organizationId, "userId": $0.userId,
                "sessionType": $0.sessionType, "createdAt": $0.createdAt, "expiresAt": $0.expiresAt
            ]
        }
        let issuers: [String: Any] = [
            "google": context.identityProviderIssuer(.google), "apple": context.identityProviderIssuer(.apple),
            "turnkey": context.turnkeyIssuer, "oidc": context.genericOIDCIssuer
        ]
        let jwks: [String: Any] = [
            "identityProviders": baseURL + OIDCTokens.KeyFamily.identityProviders.jwksPath,
            "turnkey": baseURL + OIDCTokens.KeyFamily.turnkey.jwksPath
        ]
        return .data([
            "authProxyConfigs": configs, "organizations": organizations, "users": users, "sessions": sessions,
            "issuers": issuers, "jwks": jwks, "now": now
        ])
    }

    /// The dashboard's Turnkey sections.
    func turnkeyDashboardSections() -> String {
        let configRows = turnkey.config.authProxyConfigs.map { config in
            let clients = config.clients.map { "\(Html.escape($0.provider.displayName)): <code>\(Html.escape($0.client.clientId))</code>" }
            return "<tr><td><code>\(Html.escape(config.id))</code></td><td><code>\(Html.escape(config.organizationId))</code></td>"
                + "<td>\(clients.joined(separator: "<br>"))</td><td>\(config.sessionExpirationSeconds) s</td></tr>"
        }.joined(separator: "\n")
        let organizationRows = turnkey.directory.organizations.map { organization in
            let user = organization.user
            let identities = user.oauthProviders.map {
                "\(Html.escape($0.providerName)) · <code>\(Html.escape($0.audience))</code> · <code>\(Html.escape($0.subject))</code>"
            }
            let wallets = organization.wallets.map { wallet in
                "\(Html.escape(wallet.walletName))"
                    + wallet.accounts.map {
                        "<br><small>\(Html.escape($0.addressFormat)) <code>\(Html.escape($0.path))</code></small> <code>\(Html.escape($0.address))</code>"
                    }.joined()
            }
            return "<tr><td>\(Html.escape(organization.organizationName))<br><code>\(Html.escape(organization.organizationId))</code></td>"
                + "<td>\(Html.escape(user.userName))<br><small>\(Html.escape(user.userEmail ?? ""))</small></td>"
                + "<td>\(identities.joined(separator: "<br>"))</td>"
                + "<td>\(wallets.isEmpty ? "<span class=\"muted\">none</span>" : wallets.joined(separator: "<br>"))</td></tr>"
        }.joined(separator: "\n")
        let sessionRows = turnkey.directory.liveSessions(now: now).map { session in
            let user = turnkey.directory.organization(session.organizationId)?.user.userName ?? session.userId
            return "<tr><td><code>\(Html.escape(session.publicKey))</code></td><td>\(Html.escape(user))</td>"
                + "<td>\(session.expiresAt - now) s</td></tr>"
        }.joined(separator: "\n")
        return """
            <h2>Turnkey Auth Proxy configs</h2>
            <table><tr><th>Config ID</th><th>Parent organization</th><th>Client IDs</th><th>Sessions last</th></tr>
            \(configRows)
            </table>
            <h2>Turnkey sub-organizations</h2>
            \(organizationRows.isEmpty ? "<p class=\"muted\">No sign-ups yet.</p>" : "<table><tr><th>Organization</th><th>User</th><th>Identities (provider · audience · subject)</th><th>Wallets</th></tr>\n\(organizationRows)\n</table>")
            <h2>Turnkey live sessions</h2>
            \(sessionRows.isEmpty ? "<p class=\"muted\">No live sessions.</p>" : "<table><tr><th>Session public key</th><th>User</th><th>Expires in</th></tr>\n\(sessionRows)\n</table>")
            """
    }
}
