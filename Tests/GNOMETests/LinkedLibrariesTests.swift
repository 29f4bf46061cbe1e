import Foundation
import Testing

/// The layers hold by the build, not by discipline: the CLI and the emulator are linked without
/// GTK or libadwaita, because only the UI's C module includes them (Package.swift). And what a
/// program loads before `main` is what every start pays for.
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
        #expect(libraries.contains { $0.hasPrefix("libgio-2.0") }, "ldd should list \(program)'s libraries")
    }

    /// libsoup and libsecret, and the libraries they need, are opened on first use (CAuthPlatform's
    /// soup_api.h and secret_api.h): the app's first frame sends no request and reads no keyring.
    @Test(arguments: ["portal-auth", "portal-sign-in"])
    func neitherLibsoupNorLibsecretIsLoadedBeforeMain(program: String) throws {
        let libraries = try linkedLibraries(
            program == "portal-sign-in" ? Binaries.app : Binaries.directory.appendingPathComponent(program).path)
        let found = libraries.filter { ["libsoup-3", "libsecret-1", "libgcrypt", "libnghttp2", "libpsl"].contains(where: $0.hasPrefix) }
        #expect(found == [], "\(program) loads these before main")
    }

    /// The positive control: the same check finds libsoup in the emulator, whose server is libsoup's.
    @Test func theEmulatorLinksLibsoup() throws {
        let libraries = try linkedLibraries(Binaries.directory.appendingPathComponent("portal-auth-emulator").path)
        #expect(libraries.contains { $0.hasPrefix("libsoup-3") })
    }

    /// A request opens libsoup; only the keyring opens libsecret, so `methods` never loads it.
    @Test func aRequestOpensLibsoupButNotLibsecret() {
        let run = CLI(apiHost: "127.0.0.1:1").run(["methods"], extraEnvironment: ["LD_DEBUG": "files"])
        #expect(run.status != 0, "nothing listens on port 1")
        #expect(run.stderr.contains("file=libsoup-3.0.so.0"), "libsoup was not opened")
        #expect(!run.stderr.contains("file=libsecret-1.so.0"), "methods opened libsecret")
    }

    /// A libsoup that cannot be opened ends the program as the dynamic loader would have, had it
    /// been linked: a line naming the library, and status 127; no crash.
    @Test func aLibsoupThatCannotBeOpenedIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broken-libsoup-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("libsoup-3.0.so.0"))
        let run = CLI(apiHost: "127.0.0.1:1").run(["methods"], extraEnvironment: ["LD_LIBRARY_PATH": directory.path])
        #expect(run.status == 127)
        #expect(run.stderr.hasPrefix("portal-auth: cannot open libsoup-3.0.so.0: "), "stderr: \(run.stderr)")
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
