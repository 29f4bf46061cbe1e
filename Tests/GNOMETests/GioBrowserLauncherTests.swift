import AuthTestSupport
import Foundation
import PortalAuthGNOME
import Testing

extension GNOMEIntegration {
    /// GIO picks the handler the desktop configured for a scheme (mimeapps.list in the private
    /// session's XDG dirs); a stand-in "browser" records the URL it was given.
    @Suite(.serialized) struct GioBrowserLauncherTests {
        let scheme = "x-portal-test-browser"
        let received: URL
        /// What the browser found in `XDG_ACTIVATION_TOKEN`.
        let token: URL

        init() throws {
            GLibLoopThread.ensureRunning()
            let environment = ProcessInfo.processInfo.environment
            let dataHome = try #require(environment["XDG_DATA_HOME"], "run under script/with-desktop-session")
            let configHome = try #require(environment["XDG_CONFIG_HOME"], "run under script/with-desktop-session")
            received = URL(fileURLWithPath: TestScratch.directory).appendingPathComponent("portal-browser-\(getpid()).txt")
            token = received.appendingPathExtension("token")
            try? FileManager.default.removeItem(at: received)
            try? FileManager.default.removeItem(at: token)

            let applications = URL(fileURLWithPath: dataHome).appendingPathComponent("applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            let desktopFile = """
                [Desktop Entry]
                Type=Application
                Name=Portal Test Browser
                Exec=sh -c 'printf %s "$XDG_ACTIVATION_TOKEN" > \(token.path); printf %s "$1" > \(received.path)' portal-test-browser %u
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
            #expect(try await written(received) == url.absoluteString)
            #expect(try await written(token) == "", "no window, no activation token")
        }

        /// A sign-in started from a window hands the browser the window's activation token, which
        /// lets a Wayland compositor raise it.
        @Test func theBrowserStartsWithTheAnchorsActivationToken() async throws {
            let url = URL(string: "\(scheme)://authorize?state=def")!
            try await GioBrowserLauncher().open(url, from: FakeAnchor())
            #expect(try await written(received) == url.absoluteString)
            #expect(try await written(token) == "fake-activation-token")
        }

        /// What the handler, its own process, wrote to `file` (it writes the URL last).
        private func written(_ file: URL) async throws -> String? {
            for _ in 0..<50 {
                if let opened = try? String(contentsOf: received, encoding: .utf8), !opened.isEmpty { break }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            return try? String(contentsOf: file, encoding: .utf8)
        }

        @Test func aSchemeWithoutAnyHandlerIsAnError() async {
            await #expect(throws: BrowserLaunchError.self) {
                try await GioBrowserLauncher().open(URL(string: "x-portal-nobody-handles-this://nothing")!)
            }
        }
    }
}
