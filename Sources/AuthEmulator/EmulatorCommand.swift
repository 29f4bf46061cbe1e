import AuthBase
import CEmulatorServer
import Foundation
import GLibSupport
import PortalAuthGNOME

/// `portal-auth-emulator [--port N] [--config FILE]`: parses the command line, starts the server,
/// writes the admin token file, runs the GLib main loop until SIGINT/SIGTERM.
public enum EmulatorCommand {
    public static let usage = """
        Usage: portal-auth-emulator [--port PORT] [--config FILE] [--tls-cert FILE --tls-key FILE]
                                    [--idle-timeout SECONDS] [--exit-with-pid PID]
                                    [--admin-token-file FILE] [--state-file FILE]

        A local Portal client-auth environment (v3 API) and a local Turnkey (Auth Proxy, stamped API,
        hosted OAuth pages), with fake \(sentence(SignInProvider.allCases.map(\.displayName))) sign-in pages, for development and
        tests. Listens on 127.0.0.1 only.

          --port PORT     TCP port (default 8790; 0 picks a free port)
          --config FILE   JSON file of auth environments (default: the built-in local-dev)
          --tls-cert FILE --tls-key FILE
                          serve https with this certificate and key (PEM) instead of http; the
                          request query is then libsoup's normalised copy, not the raw bytes
          --idle-timeout SECONDS
                          close a connection silent this long (default 30)
          --exit-with-pid PID
                          stop when process PID exits (script/start-emulator passes its caller)
          --admin-token-file FILE
                          where to write the admin token (default
                          $XDG_RUNTIME_DIR/portal-auth-emulator/PORT.token, or
                          ~/.cache/portal-auth-emulator/PORT.token without XDG_RUNTIME_DIR)
          --state-file FILE
                          keep end users (with their TOTP secrets), sessions and Turnkey
                          sub-organizations in FILE, and start from what it holds, so a session an
                          app restores from its keyring is still live after a restart (script/run
                          uses ${XDG_STATE_HOME:-~/.local/state}/portal-auth-emulator/PORT.json).
                          FILE is written mode 0600; its folder is made mode 0700 and, like the
                          file, must be yours alone. Session tokens are kept as digests only.
                          POST /emulator/v1/reset empties it.
          --help          show this help

        Once ready it prints, in one write:
          listening on http://127.0.0.1:PORT          (https:// with --tls-cert)
          dashboard: http://127.0.0.1:PORT/dashboard/KEY/
          admin token file: FILE
        Stops on SIGINT or SIGTERM, removing the token file. Logs "METHOD /path STATUS" per request to
        stderr (never a query, header, body, token or dashboard key: "/dashboard/…").

        The administration API answers only whoever holds this run's admin token (anyone on the
        computer can reach 127.0.0.1): a random "pae_..." token, or the one in
        PORTAL_AUTH_EMULATOR_ADMIN_TOKEN (32 to 256 characters from A-Z a-z 0-9 - _ . ~), written to
        the token file, mode 0600. Send it as "Authorization: Bearer TOKEN"; nothing else (no cookie,
        no query) stands for it. The dashboard has a key of its own, made at each start: the address
        above, a random "pad_..." KEY, shows it (GET /emulator/v1/dashboard tells it to the token's
        holder); it is no cookie, opens nothing else and is not the admin token. Without either: 401
        and an empty body. The Portal and Turnkey APIs and the sign-in pages stay open, as the real
        services' are. Every path answers only a Host of 127.0.0.1, localhost or [::1] (403 otherwise).

        Turnkey (built-in Auth Proxy config local-dev: \(identifiers(of: turnkey).joined(separator: ", "))):
          POST /turnkey/auth-proxy/v1/wallet_kit_config, account, oauth2_authenticate, oauth_login,
               signup_v2                  header X-Auth-Proxy-Config-ID; errors {"code","message","details"}
          POST /turnkey/api/public/v1/query/whoami, query/get_user, query/get_activity,
               submit/stamp_login         header X-Stamp (a live session's key, signing the exact body)
          GET  /turnkey/oauth-origin?provider=\(identifiers(of: oidc).joined(separator: "|"))&clientId=&redirectUri=&nonce=[&state=]
                                          302 to the fake \(sentence(oidc.map(\.displayName), "or")) page
          GET  /turnkey/oauth-redirect?scheme=S&...   302 to S://?... (the other parameters as they came)
          GET  \(pkce.map(\.emulatorAuthorizePath).joined(separator: ", "))   PKCE S256; Continue 302s to redirect_uri?code=&state=
          \(sentence(oidc.map(\.displayName))) Continue 302s to redirect_uri&id_token=&state= (Cancel: error=access_denied);
          a tknonce= on their authorize URL is copied into the id_token
          oauth_login takes a token whose nonce or tknonce is sha256hex(publicKey); a \(sentence(pkce.map(\.displayName), "or")) token
          minted without a nonce (oauth2_authenticate's nonce is optional) needs neither
          Tokens are ES256 JWTs: id_tokens from iss <base>/idp/\(identifiers(of: oidc).joined(separator: "|")), keys /idp/.well-known/jwks.json;
          OIDC tokens for \(sentence(pkce.map(\.displayName))) and session JWTs from iss <base>/turnkey, keys
          /turnkey/.well-known/jwks.json

        Dashboard at /dashboard/KEY/ (or / with the admin token). Administration API (JSON, admin token)
        under /emulator/v1/:
          POST reset                    forget sessions, grants, outbox, faults, Turnkey sub-organizations;
                                        real clock again
          GET  dashboard                {"url"}: the dashboard's address with its key
          GET  state                    environments, users, live sessions (no tokens)
          GET  turnkey                  Auth Proxy configs, sub-organizations, users, live sessions (no tokens)
          GET  outbox                   magic-link emails: [{email, link, sentAt}]
          GET  requests                 [{method, path, status}] (status 0 = dropped)
          GET|POST clock                {"advanceSeconds": N} moves emulator time forward
          GET|POST faults               {"path", "kind", "count", "status", "seconds", "pendingAnswers"}:
                                          status  answer `status` (default 503), do nothing
                                          hang    hold `seconds` (default 5), then handle normally
                                          drop    do the work, then close without answering
                                          pending (stamp_login only) the activity's first `pendingAnswers`
                                                  answers (default 1) say ACTIVITY_STATUS_PENDING
          POST environments/<id>        {"authMethods"?, "redirectUrls"?, "providersWithoutCredentials"?}
                                        changes an environment's sign-in methods or allowed redirect
                                        URLs (e.g. a loopback http://127.0.0.1:PORT/PATH) at run time
                                        (reset restores them)
          GET  users/<email>/totp       {"secret", "code"} of a TOTP user
          POST sessions/revoke          {"endUserId"?} revokes sessions (all without a body)

        Config file format:
          {"environments": [{
             "id": "local-dev",                                   letters, digits, '-', '_'
             "authMethods": ["GOOGLE", "APPLE", "EMAIL_MAGIC_LINK"],
             "redirectUrls": ["io.github.portalauth.signin://auth/callback"],
             "autoCreateWallet": true,                            optional, default true
             "accountAbstraction": true,                          optional, default false
             "providersWithoutCredentials": ["APPLE"],            optional: enabled providers missing their
                                                                  credentials (oauth/urls then answers 401)
             "users": [{"email": "alice@example.com", "name": "Alice", "needsTotp": false}]
           }],
           "turnkey": {                                           optional, default the built-in local-dev
             "authProxyConfigs": [{
               "id": "local-dev",                                 the X-Auth-Proxy-Config-ID
               "organizationId": "...",                           optional parent organization
               "sessionExpirationSeconds": 900,                   optional
               "providers": {                                     any of \(identifiers(of: SignInProvider.allCases).joined(separator: ", "))
                 "google": {"clientId": "emulator-turnkey-google",
                            "secondaryClientIds": ["emulator-turnkey-google-secondary"],
                            "redirectUris": ["/turnkey/oauth-redirect?scheme=io.github.portalauth.signin"]},
                 "discord": {"clientId": "emulator-turnkey-discord",
                             "redirectUris": ["io.github.portalauth.signin://"]}
               }
             }],                                                  "/..." redirect URIs are on the emulator
             "users": [{"email": "alice@example.com", "name": "Alice"}]   accounts the fake pages list
           }}
        Example: data/emulator/local-dev.json (the built-in default).
        """

    // The providers the usage names, from the provider table.
    private static var turnkey: [SignInProvider] { SignInProvider.allCases.filter { $0.offer(on: .turnkey) != nil } }
    private static var oidc: [SignInProvider] { SignInProvider.allCases.filter(\.issuesIdTokens) }
    private static var pkce: [SignInProvider] { SignInProvider.allCases.filter { $0.authProxyProvider != nil } }
    private static func identifiers(of providers: [SignInProvider]) -> [String] { providers.map(\.rawValue) }
    private static func sentence(_ names: [String], _ conjunction: String = "and") -> String {
        SignInProvider.englishList(names, conjunction)
    }

    struct Options: Equatable {
        var port: UInt16 = 8790
        var configPath: String?
        var exitWithPid: Int32?
        var tlsCertificate: String?
        var tlsKey: String?
        var idleSeconds: UInt32 = 30
        var adminTokenFile: String?
        var stateFile: String?
        var showHelp = false
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() throws -> String {
                guard let next = rest.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
                return next
            }
            switch argument {
            case "--help", "-h": options.showHelp = true
            case "--port":
                let text = try value()
                guard let port = UInt16(text) else { throw UsageError(message: "--port must be a number from 0 to 65535, not \"\(text)\"") }
                options.port = port
            case "--config": options.configPath = try value()
            case "--admin-token-file":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--admin-token-file needs a file path") }
                options.adminTokenFile = path
            case "--state-file":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--state-file needs a file path") }
                options.stateFile = path
            case "--tls-cert": options.tlsCertificate = try value()
            case "--tls-key": options.tlsKey = try value()
            case "--idle-timeout":
                let text = try value()
                guard let seconds = UInt32(text), (1...3600).contains(seconds) else {
                    throw UsageError(message: "--idle-timeout must be a number of seconds from 1 to 3600, not \"\(text)\"")
                }
                options.idleSeconds = seconds
            case "--exit-with-pid":
                let text = try value()
                guard let pid = Int32(text), pid > 0 else {
                    throw UsageError(message: "--exit-with-pid must be a process ID, not \"\(text)\"")
                }
                options.exitWithPid = pid
            default:
                if argument.hasPrefix("--port=") {
                    rest.insert(contentsOf: ["--port", String(argument.dropFirst(7))], at: rest.startIndex)
                } else if argument.hasPrefix("--config=") {
                    rest.insert(contentsOf: ["--config", String(argument.dropFirst(9))], at: rest.startIndex)
                } else {
                    throw UsageError(message: "unknown argument \"\(argument)\"")
                }
            }
        }
        guard (options.tlsCertificate == nil) == (options.tlsKey == nil) else {
            throw UsageError(message: "--tls-cert and --tls-key go together")
        }
        return options
    }

    struct UsageError: Error { let message: String }

    /// Runs the emulator; returns the process exit status.
    public static func run(arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try parse(arguments)
        } catch let error as UsageError {
            printError("portal-auth-emulator: \(error.message)\nTry --help.")
            return 2
        } catch {
            return 2
        }
        if options.showHelp {
            print(usage)
            return 0
        }
        let config: EmulatorConfig
        do {
            config = try options.configPath.map(ConfigLoader.load(path:)) ?? .builtIn
        } catch {
            printError("portal-auth-emulator: invalid config \(options.configPath ?? ""): \(error)")
            return 1
        }

        let adminToken: AdminToken
        do {
            adminToken = try ProcessInfo.processInfo.environment["PORTAL_AUTH_EMULATOR_ADMIN_TOKEN"].map(AdminToken.chosen) ?? .random()
        } catch {
            printError("portal-auth-emulator: \(error)")
            return 2
        }

        portal_emu_protect_stderr()
        let emulator: Emulator
        do {
            emulator = try Emulator(config: config, adminToken: adminToken)
            if let path = options.stateFile {
                emulator.stateKeeper = try StateKeeper(file: StateFile(path: URL(fileURLWithPath: path).path), restoringInto: emulator)
            }
        } catch {
            printError("portal-auth-emulator: \(error)")
            return 1
        }
        let host = SoupServerHost(emulator: emulator)
        let tokenFile: String
        do {
            let tls = options.tlsCertificate.flatMap { certificate in options.tlsKey.map { (certificate: certificate, key: $0) } }
            let port = try host.listen(port: options.port, tls: tls, idleSeconds: options.idleSeconds)
            tokenFile = options.adminTokenFile ?? AdminTokenFile.defaultPath(port: port)
            try AdminTokenFile.write(adminToken, to: tokenFile, makeFolder: options.adminTokenFile == nil)
        } catch {
            printError("portal-auth-emulator: \(error)")
            host.stop()
            return 1
        }
        defer { AdminTokenFile.remove(adminToken, at: tokenFile) }
        let loop = g_main_loop_new(nil, 0)
        portal_emu_quit_on_signals(loop)
        if let owner = options.exitWithPid, portal_emu_quit_when_process_exits(loop, owner) == 0 {
            printError("portal-auth-emulator: process \(owner) (--exit-with-pid) is not running")
            host.stop()
            return 1
        }
        // The same bridge as the app and the CLI: MainActor and DispatchQueue.main work runs under this loop.
        MainLoopBridge.attach()
        // Written straight to the descriptor (no stdio buffer) in one write: the first line is the
        // readiness signal, and a reader that takes only that line (script/start-emulator) loses
        // the rest with the pipe, so the dashboard key's one appearance here reaches no log.
        FileHandle.standardOutput.write(
            Data(
                """
                listening on \(emulator.baseURL)
                dashboard: \(emulator.administration.dashboardURL)
                admin token file: \(tokenFile)

                """.utf8))
        g_main_loop_run(loop)
        emulator.stateKeeper?.save(emulator)
        host.stop()
        g_main_loop_unref(loop)
        printError("portal-auth-emulator: stopped")
        return 0
    }

    private static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
