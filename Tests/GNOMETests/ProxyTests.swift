import AuthTestSupport
import Foundation
import Testing

extension GNOMEIntegration {
    /// Proxies, as people behind one have them set: `portal-auth` (libsoup with GIO's default proxy
    /// resolver) sends requests for other hosts through the desktop's proxy, here the `https_proxy`
    /// and `http_proxy` variables, but talks to this machine directly.
    @Suite(.serialized) struct ProxyTests {
        let emulator: AdministeredEmulator
        let proxy: CannedHTTPServer

        init() async throws {
            GLibLoopThread.ensureRunning()
            emulator = try #require(AdministeredEmulator.shared, "the emulator must start (swift build first)")
            try await emulator.reset()
            // Answers whatever it is asked with a 502 and remembers what that was.
            proxy = try CannedHTTPServer(status: "502 Bad Gateway", body: "{}")
        }

        var proxyEnvironment: [String: String] {
            let url = "http://\(proxy.apiHost)"
            return ["http_proxy": url, "https_proxy": url, "HTTP_PROXY": url, "HTTPS_PROXY": url, "no_proxy": "", "NO_PROXY": ""]
        }

        @Test func requestsToThisMachineGoDirectlyEvenWithAProxySet() async throws {
            defer { proxy.stop() }
            let result = CLI(apiHost: emulator.apiHost).run(["methods"], extraEnvironment: proxyEnvironment)
            #expect(result.status == 0)
            #expect(try await emulator.requests("GET", "/api/v3/auth/methods").map(\.status) == [200])
            #expect(proxy.requestLines.isEmpty, "a request to 127.0.0.1 must not go to the proxy")
        }

        @Test func requestsToOtherHostsGoThroughTheDesktopsProxy() {
            defer { proxy.stop() }
            let result = CLI(apiHost: "api.example.test").run(["methods"], extraEnvironment: proxyEnvironment)
            #expect(result.status != 0) // the "proxy" refuses; what matters is that it was asked
            #expect(proxy.requestLines == ["CONNECT api.example.test:443 HTTP/1.1"])
        }
    }
}
