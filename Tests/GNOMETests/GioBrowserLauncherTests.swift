import Foundation
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// GIO picks the handler the desktop configured for a scheme (mimeapps.list in the private
    /// session's XDG dirs); a stand-in "browser" records the URL it was given.
    @Suite(.serialized) struct GioBrowserLauncherTests {
        let scheme = "x-portal-test-browser"
        let received: URL

        init() throws {
            GLibLoopThread.ensureRunning()
            let environment = ProcessInfo.processInfo.environment
            let dataHome = try #require(environment["XDG_DATA_HOME"], "run under script/with-desktop-session")
            let configHome = try #require(environment["XDG_CONFIG_HOME"], "run under script/with-desktop-session")
            received = URL(fileURLWithPath: TestScratch.directory).appendingPathComponent("portal-browser-\(getpid()).txt")
            try? FileManager.default.removeItem(at: received)

            let applications = URL(fileURLWithPath: dataHome).appendingPathComponent("applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            let desktopFile = """
                [Desktop Entry]
                Type=Application
                Name=Portal Test Browser
                Exec=sh -c 'printf %s "$1" > \(received.path)' portal-test-browser %u
                MimeType=x-scheme-handler/\(scheme);
                NoDisplay=true
                """
            try desktopFile.write(
                to: applications.appendingPathComponent("portal-test-browser.desktop"),
                atomically: true, encoding: .utf8)
            try Self.addDefault("x-scheme-handler/\(scheme)=portal-test-browser.desktop", configHome: configHome)
        }

        /// Adds one default to mimeapps.list, keeping what other suites of the session put there.
        static func addDefault(_ entry: String, configHome: String) throws {
            try FileManager.default.createDirectory(atPath: configHome, withIntermediateDirectories: true)
            let path = configHome + "/mimeapps.list"
            var lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard !lines.contains(entry) else { return }
            if let section = lines.firstIndex(of: "[Default Applications]") {
                lines.insert(entry, at: section + 1)
            } else {
                lines += ["[Default Applications]", entry]
            }
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }

        @Test func opensTheURLWithTheDesktopsHandler() async throws {
            let url = URL(string: "\(scheme)://authorize?state=abc&prompt=select_account")!
            try await GioBrowserLauncher().open(url)
            // The handler runs as its own process; give it a moment to write.
            var opened: String?
            for _ in 0..<50 {
                opened = try? String(contentsOf: received, encoding: .utf8)
                if opened?.isEmpty == false { break }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            #expect(opened == url.absoluteString)
        }

        @Test func aSchemeWithoutAnyHandlerIsAnError() async {
            await #expect(throws: BrowserLaunchError.self) {
                try await GioBrowserLauncher().open(URL(string: "x-portal-nobody-handles-this://nothing")!)
            }
        }
    }
}
