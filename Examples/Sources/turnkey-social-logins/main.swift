// Turnkey's "Social logins (OAuth)" page, its examples as written. Changed, the platform only: the
// import; SwiftUI's @main App, @StateObject and @EnvironmentObject (GTK's application and a
// controller hold the context); `defaultAnchor()` returns the GTK window as a WindowAnchor; and the
// placeholders are read from the environment (the local emulator's values by default).
import ExampleSupport
import PortalAuthGNOME

// DemoWalletApp.swift: configure once at start-up.
func configureTurnkey() {
    let config = TurnkeyConfig(
        apiUrl: ExampleEnvironment.value("TURNKEY_API_URL", or: "https://api.turnkey.com"),
        authProxyUrl: ExampleEnvironment.value("TURNKEY_AUTH_PROXY_URL", or: "https://authproxy.turnkey.com"),
        authProxyConfigId: ExampleEnvironment.value("TURNKEY_AUTH_PROXY_CONFIG_ID", or: "local-dev"),
        rpId: "io.github.portalauth.examples",
        organizationId: ExampleEnvironment.value("TURNKEY_ORGANIZATION_ID", or: ""),
        auth: .init(
            oauth: .init(
                appScheme: ExampleEnvironment.value("TURNKEY_APP_SCHEME", or: "io.github.portalauth.signin"),
                providers: .init(
                    google: .init(
                        primaryClientId: .init(webClientId: ExampleEnvironment.value("GOOGLE_CLIENT_ID", or: "local-dev-google"))
                        // secondaryClientIds: ["<another_google_client_id>"]
                    ),
                    apple: .init(
                        // primaryClientId: .init(serviceId: "<your_apple_services_id>") - this is only needed if you're using handleAppleWebOauth.
                        // secondaryClientIds: ["<another_apple_client_id>"]
                    ),
                    x: .init(primaryClientId: ExampleEnvironment.value("X_CLIENT_ID", or: "local-dev-x")),
                    discord: .init(primaryClientId: ExampleEnvironment.value("DISCORD_CLIENT_ID", or: "local-dev-discord"))
                )
            )
        )
    )
    TurnkeyContext.configure(config)
}

// Anchor.swift: the window sign-ins start from.
var mainWindow: ExampleWindow?

@MainActor func defaultAnchor() -> WindowAnchor? {
    mainWindow.map { WindowAnchor(gtkWindow: $0.gtkWindow) }
}

// LoginView.swift: the buttons of the page's three views, in one window.
@MainActor final class LoginView {
    let turnkey: TurnkeyContext

    init(turnkey: TurnkeyContext, view: ExampleWindow) {
        self.turnkey = turnkey

        view.addButton("Continue with Google") {
            guard let anchor = defaultAnchor() else { return }
            try await turnkey.handleGoogleOAuth(anchor: anchor)
        }
        view.addButton("Continue with Apple") {
            guard let anchor = defaultAnchor() else { return }
            try await turnkey.handleAppleOAuth(anchor: anchor)
        }
        view.addButton("Continue with Discord") {
            guard let anchor = defaultAnchor() else { return }
            try await turnkey.handleDiscordOAuth(anchor: anchor)
        }
        view.addButton("Continue with X") {
            guard let anchor = defaultAnchor() else { return }
            try await turnkey.handleXOauth(anchor: anchor)
        }
        // Advanced: onOAuthSuccess, then completeOAuth yourself.
        view.addButton("Continue with Google (completeOAuth yourself)") {
            guard let anchor = defaultAnchor() else { return }
            try await turnkey.handleGoogleOAuth(
                anchor: anchor,
                sessionKey: "main",
                onOAuthSuccess: { success in
                    // success.oidcToken, success.publicKey, success.providerName
                    Task {
                        _ = try await turnkey.completeOAuth(
                            oidcToken: success.oidcToken,
                            publicKey: success.publicKey,
                            sessionKey: "main"
                        )
                    }
                }
            )
        }
    }
}

let app = ExampleApp(id: "io.github.portalauth.examples.TurnkeySocialLogins")
var loginView: LoginView?
app.run {
    configureTurnkey()
    let window = app.makeWindow(title: "Turnkey social logins")
    mainWindow = window
    loginView = LoginView(turnkey: TurnkeyContext.shared, view: window)
    window.present()
}
