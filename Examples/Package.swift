// swift-tools-version:6.1
import PackageDescription

// The seed pages' examples as small GTK programs, each built against one dependency: the
// PortalAuthGNOME product of the package one directory up (as an app would add it from its URL).
// ExampleSupport is the examples' scaffolding, not part of the SDK: a few lines of GTK (a window,
// buttons, a label) and where the examples' settings come from. script/test builds every example and signs in with `your-own-oidc-provider`.
let package = Package(
    name: "PortalAuthExamples",
    dependencies: [.package(name: "PortalAuthLinux", path: "..")],
    targets: [
        .systemLibrary(name: "CGtk4Flags", path: "Sources/CGtk4Flags", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        .target(name: "CExampleGtk", dependencies: ["CGtk4Flags"]),
        .target(name: "ExampleSupport", dependencies: ["CExampleGtk", .product(name: "PortalAuthGNOME", package: "PortalAuthLinux")]),
        example("sign-in-with-apple"),
        example("sign-in-with-google"),
        example("login-with-apple"),
        example("handle-redirect"),
        example("turnkey-social-logins"),
        example("your-own-oidc-provider")
    ]
)

func example(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "PortalAuthGNOME", package: "PortalAuthLinux"), "ExampleSupport"],
        path: "Sources/\(name)")
}
