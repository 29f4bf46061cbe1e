// swift-tools-version:6.1
import PackageDescription

// Layers point one way, and the build enforces it: each C module includes only what its layer may
// use, so the CLI and the emulator link no GTK. See docs/ARCHITECTURE.md.
//
//   portal-sign-in → SignInApp (+ CSignInUI: GTK4, libadwaita, gettext) → SignInAccounts → SignInFlow
//   portal-auth ───┐        │
//                  PortalAuthGNOME (+ CAuthPlatform: GIO, libsoup client, libsecret, crypto, QR codes)
//                           │
//              PortalAuth (Portal's rules)   TurnkeyAuth (Turnkey's rules), both pure Swift
//                           │
//              AuthBase (shared pure-Swift base: wire types, query parsing, base64url, JWT claims, …)
//
//   portal-auth-emulator → AuthEmulator (+ CEmulatorServer: SoupServer) → PortalAuthGNOME, AuthBase
//
//   GLibSupport (+ CGLibSupport: GLib, GObject, GIO; the dispatch bridge): GError as a Swift error,
//   the main-loop bridge, GObject ownership and signals; used by SignInApp, PortalAuthGNOME,
//   AuthEmulator and portal-auth, and uses none of them.
let package = Package(
    name: "PortalAuthLinux",
    products: [
        .library(name: "PortalAuth", targets: ["PortalAuth"]),
        .library(name: "TurnkeyAuth", targets: ["TurnkeyAuth"]),
        // The desktop for both cores (keyring stores, libsoup transport, browser, scheme handler,
        // loopback listener): the one dependency a Linux app adds; it re-exports both cores.
        .library(name: "PortalAuthGNOME", targets: ["PortalAuthGNOME"]),
        .executable(name: "portal-sign-in", targets: ["portal-sign-in"]),
        .executable(name: "portal-auth", targets: ["portal-auth"]),
        .executable(name: "portal-auth-emulator", targets: ["portal-auth-emulator"])
    ],
    targets: [
        // pkg-config flags only; the headers are included by the C module of each layer.
        .systemLibrary(name: "CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CLibsoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
        .systemLibrary(name: "CLibsecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        .systemLibrary(name: "CGtk4", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .systemLibrary(name: "CAdwaita", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),

        // One C module per layer.
        // crypto.c includes OpenSSL's headers (libssl-dev) but opens libcrypto only when first used;
        // qrcode.c includes libqrencode's (libqrencode-dev) and opens libqrencode the same way.
        .target(name: "CGLibSupport", dependencies: ["CGio"], linkerSettings: [.linkedLibrary("dispatch")]),
        .target(name: "CAuthPlatform", dependencies: ["CGio"]),
        .target(name: "CEmulatorServer", dependencies: ["CLibsoup"]),
        .target(name: "CSignInUI", dependencies: ["CGtk4", "CAdwaita"]),

        // Swift, every target in Swift 6 language mode (the tools version's default). Each excludes its
        // README.md, which SwiftPM would otherwise report as an unhandled file (C targets ignore it).
        .target(name: "AuthBase", exclude: ["README.md"]),
        .target(name: "PortalAuth", dependencies: ["AuthBase"], exclude: ["README.md"]),
        .target(name: "TurnkeyAuth", dependencies: ["AuthBase"], exclude: ["README.md"]),
        .target(name: "GLibSupport", dependencies: ["CGLibSupport"], exclude: ["README.md"]),
        .target(
            name: "PortalAuthGNOME", dependencies: ["AuthBase", "PortalAuth", "TurnkeyAuth", "GLibSupport", "CAuthPlatform"],
            exclude: ["README.md"]),
        .target(
            name: "AuthEmulator", dependencies: ["AuthBase", "PortalAuthGNOME", "GLibSupport", "CEmulatorServer"],
            exclude: ["README.md"]),
        // The sign-in window's state machine: no GTK, tested without a display.
        .target(name: "SignInFlow", dependencies: ["AuthBase"], exclude: ["README.md"]),
        // The two account services: thin adapters from the cores to the flow, no GTK and no
        // platform (the app injects PortalAuthGNOME's pieces), tested on the cores' in-memory fakes.
        .target(name: "SignInAccounts", dependencies: ["SignInFlow", "PortalAuth", "TurnkeyAuth"], exclude: ["README.md"]),
        .target(
            name: "SignInApp",
            dependencies: ["SignInFlow", "SignInAccounts", "PortalAuth", "TurnkeyAuth", "PortalAuthGNOME", "GLibSupport", "CSignInUI"],
            exclude: ["README.md"],
            plugins: ["GResourceEmbedder"]),
        // The stylesheet, icons and brand marks, compiled into the app at build time.
        .executableTarget(name: "embed-gresource", exclude: ["README.md"]),
        .plugin(name: "GResourceEmbedder", capability: .buildTool(), dependencies: ["embed-gresource"]),

        .executableTarget(name: "portal-sign-in", dependencies: ["SignInApp"], exclude: ["README.md"]),
        .executableTarget(
            name: "portal-auth", dependencies: ["PortalAuth", "TurnkeyAuth", "PortalAuthGNOME", "GLibSupport"], exclude: ["README.md"]),
        .executableTarget(name: "portal-auth-emulator", dependencies: ["AuthEmulator"], exclude: ["README.md"]),

        // Helpers the test targets share (secret-shaped values, waiting, recording boxes, the cores' fakes).
        .target(name: "AuthTestSupport", dependencies: ["AuthBase", "PortalAuth", "TurnkeyAuth"], path: "Tests/AuthTestSupport"),
        .testTarget(name: "AuthBaseTests", dependencies: ["AuthBase", "AuthTestSupport"]),
        .testTarget(name: "PortalAuthTests", dependencies: ["PortalAuth", "AuthTestSupport"]),
        .testTarget(name: "TurnkeyAuthTests", dependencies: ["TurnkeyAuth", "AuthTestSupport"]),
        // PortalAuthGNOME's LibcryptoProvider makes the session keys, stamps and PKCE pairs a Turnkey client would;
        // AuthEmulator itself only for the unit tests of its parts (the rest talks HTTP to the binary).
        .testTarget(name: "EmulatorTests", dependencies: ["PortalAuth", "AuthBase", "PortalAuthGNOME", "AuthEmulator", "AuthTestSupport"]),
        .testTarget(name: "GLibSupportTests", dependencies: ["GLibSupport", "CGLibSupport"]),
        .testTarget(name: "SignInFlowTests", dependencies: ["SignInFlow", "AuthTestSupport"]),
        .testTarget(name: "SignInAccountsTests", dependencies: ["SignInAccounts", "AuthTestSupport"]),
        // Holds CAuthPlatform's declarations of libsoup and libsecret to their own headers (it does not
        // compile if one differs); built with the tests, as the app and the CLI link neither library.
        .target(name: "LibraryDeclarations", dependencies: ["CAuthPlatform", "CLibsoup", "CLibsecret"], path: "Tests/LibraryDeclarations"),
        .testTarget(
            name: "GNOMETests",
            dependencies: [
                "PortalAuth", "TurnkeyAuth", "PortalAuthGNOME", "GLibSupport", "CAuthPlatform", "LibraryDeclarations", "AuthTestSupport"
            ],
            exclude: ["Support/fake-prompter.py"])
    ]
)
