// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PortalAuthLinux",
    products: [
        .library(name: "PortalAuth", targets: ["PortalAuth"]),
        .executable(name: "portal-sign-in", targets: ["portal-sign-in"]),
        .executable(name: "portal-auth", targets: ["portal-auth"]),
        .executable(name: "portal-auth-emulator", targets: ["portal-auth-emulator"]),
    ],
    targets: [
        .systemLibrary(name: "CGtk4", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .systemLibrary(name: "CLibsecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),
        .systemLibrary(name: "CLibsoup", pkgConfig: "libsoup-3.0", providers: [.apt(["libsoup-3.0-dev"])]),
        .systemLibrary(name: "CQrencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CAdwaita", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        .target(name: "CPortalShim", dependencies: ["CGtk4", "CLibsecret", "CLibsoup", "CQrencode", "CAdwaita"],
                linkerSettings: [.linkedLibrary("dispatch")]),

        .target(name: "PortalAuth"),
        .target(name: "PortalAuthGNOME", dependencies: ["PortalAuth", "CPortalShim"],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "PortalAuthEmulator", dependencies: ["PortalAuthGNOME", "CPortalShim"],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "PortalSignIn", dependencies: ["PortalAuth", "PortalAuthGNOME", "CPortalShim"],
                swiftSettings: [.swiftLanguageMode(.v5)]),

        .executableTarget(name: "portal-sign-in", dependencies: ["PortalSignIn"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "portal-auth", dependencies: ["PortalAuth", "PortalAuthGNOME"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "portal-auth-emulator", dependencies: ["PortalAuthEmulator"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),

        .testTarget(name: "PortalAuthTests", dependencies: ["PortalAuth"]),
        .testTarget(name: "EmulatorTests", dependencies: ["PortalAuth"]),
        .testTarget(name: "GNOMETests", dependencies: ["PortalAuth", "PortalAuthGNOME"],
                    exclude: ["Support/fake-prompter.py"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
