import Foundation
import Testing

/// The layers hold by the build, not by discipline: the CLI and the emulator are linked without
/// GTK or libadwaita, because only the UI's C module includes them (Package.swift).
@Suite struct LinkedLibrariesTests {
    private func linkedLibraries(_ executable: String) throws -> [String] {
        try #require(FileManager.default.isExecutableFile(atPath: executable), "\(executable) must be built first")
        let result = Subprocess.run("/usr/bin/ldd", [executable])
        try #require(result.status == 0, "ldd failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private func uiLibraries(_ libraries: [String]) -> [String] {
        libraries.filter { $0.hasPrefix("libgtk-4") || $0.hasPrefix("libadwaita") || $0.hasPrefix("libqrencode") }
    }

    @Test(arguments: ["portal-auth", "portal-auth-emulator"])
    func commandLineProgramsLinkNoGTK(program: String) throws {
        let libraries = try linkedLibraries(Binaries.directory.appendingPathComponent(program).path)
        #expect(uiLibraries(libraries) == [], "\(program) links UI libraries")
        #expect(libraries.contains { $0.hasPrefix("libsoup-3") }, "\(program) should link libsoup")
    }

    /// Most of a `portal-auth` run is loading libraries, so it loads only what every command needs:
    /// FoundationEssentials rather than all of Foundation (every module of AuthBase, PortalAuth,
    /// TurnkeyAuth, PortalAuthGNOME and portal-auth imports FoundationEssentials), and libcrypto
    /// not at start but when a Turnkey command first signs (crypto.c opens it).
    @Test func theCLILinksNeitherFoundationNorLibcrypto() throws {
        let libraries = try linkedLibraries(Binaries.directory.appendingPathComponent("portal-auth").path)
        #expect(!linksAllOfFoundation(libraries), "portal-auth links all of Foundation: a module it uses imports Foundation")
        #expect(!libraries.contains { $0.hasPrefix("libcrypto.so") }, "portal-auth links libcrypto")
    }

    /// The app's start-up pays for every library too: its modules import FoundationEssentials, and
    /// its GResource bundle is Swift source, not a SwiftPM resource (whose accessor imports Foundation).
    @Test func theAppLinksFoundationEssentialsOnly() throws {
        let libraries = try linkedLibraries(Binaries.app)
        #expect(!linksAllOfFoundation(libraries), "portal-sign-in links all of Foundation: a module or a resource accessor imports it")
        #expect(libraries.contains { $0.hasPrefix("libFoundationEssentials.so") })
        #expect(
            !libraries.contains { $0.hasPrefix("libqrencode") },
            "portal-sign-in links libqrencode, which is opened when a QR code is first drawn")
    }

    private func linksAllOfFoundation(_ libraries: [String]) -> Bool {
        libraries.contains { $0.hasPrefix("libFoundation.so") || $0.hasPrefix("libFoundationInternationalization") }
    }

    /// The positive control: the same check finds Foundation in the emulator, which imports it
    /// (a debug build links the Swift runtime and Foundation as shared libraries).
    @Test func theEmulatorLinksFoundation() throws {
        let libraries = try linkedLibraries(Binaries.directory.appendingPathComponent("portal-auth-emulator").path)
        #expect(libraries.contains { $0.hasPrefix("libFoundation.so") })
    }

    /// The positive control: the same check finds GTK and libadwaita in the app.
    @Test func theAppLinksGTKAndLibadwaita() throws {
        let found = uiLibraries(try linkedLibraries(Binaries.app))
        #expect(found.contains { $0.hasPrefix("libgtk-4") })
        #expect(found.contains { $0.hasPrefix("libadwaita") })
    }
}
