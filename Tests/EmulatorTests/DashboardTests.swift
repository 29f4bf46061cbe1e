import AuthTestSupport
import Foundation
import Testing

/// The dashboard is for the emulator's owner, in their browser. A browser sends 127.0.0.1's cookies
/// to every port of it, whoever serves there: the dashboard keeps nothing in a cookie that opens
/// anything.
@Suite("Dashboard: nothing a browser sends elsewhere opens the administration")
struct DashboardCookieTests {
    /// The `name=value` pairs of `Cookie` and `Set-Cookie` headers.
    private static func pairs(_ headers: [String], setCookie: Bool) -> [(pair: String, value: String)] {
        headers.flatMap { header in
            (setCookie ? Array(header.split(separator: ";").prefix(1)) : header.split(separator: ";")).compactMap { part in
                let pair = part.trimmingCharacters(in: .whitespaces)
                guard let equals = pair.firstIndex(of: "=") else { return nil }
                return (pair, String(pair[pair.index(after: equals)...]))
            }
        }
    }

    @Test func aPageOnAnotherUsersLoopbackPortReceivesNoCookieTheAdministrationAccepts() async throws {
        let child = try ChildEmulator()
        defer { child.stop() }
        let prefix = "dashboard: "
        let printed = child.startUpLines.dropFirst().first ?? ""
        #expect(printed.hasPrefix(prefix + child.baseURL.absoluteString + "/"), "the second start-up line is the dashboard's address")

        // The owner opens the printed address as a person would: the dashboard.
        let browser = LoopbackBrowser()
        let dashboard = try browser.visit(String(printed.dropFirst(prefix.count)))
        #expect(dashboard.status == 200)
        expectQuietly(dashboard.body.contains("Current TOTP code"), "the owner sees the dashboard")
        _ = try browser.visit(String(printed.dropFirst(prefix.count))) // and it refreshes itself

        // Then the same browser loads a page another user serves on another port of 127.0.0.1.
        let page = try OtherUser.CookieCatcher()
        _ = try browser.visit("http://127.0.0.1:\(page.port)/")
        let caught = page.received()
        #expect(caught.asked, "the other user's page was loaded")

        expectQuietly(browser.setCookies.isEmpty, "the emulator set a cookie")
        // Whatever that page received, and every cookie the emulator set, opens nothing.
        let stranger = EmulatorClient(baseURL: child.baseURL)
        let cookies = Self.pairs(caught.cookies, setCookie: false) + Self.pairs(browser.setCookies, setCookie: true)
        for cookie in cookies {
            let asBearer = try await stranger.get("/emulator/v1/state", headers: ["Authorization": "Bearer \(cookie.value)"]).status
            #expect(asBearer == 401, "a cookie's value as the admin API's Bearer token")
            let asCookie = try await stranger.get("/emulator/v1/state", headers: ["Cookie": cookie.pair]).status
            #expect(asCookie == 401, "a cookie sent to the admin API")
            let onTheDashboard = try await stranger.get("/", headers: ["Cookie": cookie.pair]).status
            #expect(onTheDashboard == 401, "a cookie sent to the dashboard")
        }
    }
}

/// The dashboard's own key: a per-run path that shows the dashboard and opens nothing else.
@Suite("Dashboard: its key opens the page and nothing else")
final class DashboardKeyTests: EmulatorSuite {
    /// The path of the dashboard's address, `/dashboard/KEY/`.
    private func dashboardPath() async throws -> String {
        let url = try await client.dashboardURL()
        let base = emulator.baseURL.absoluteString
        expectQuietly(url.hasPrefix(base + "/dashboard/pad_") && url.hasSuffix("/"), "the admin API gives the dashboard's address")
        return String(url.dropFirst(base.count))
    }

    @Test func theKeyPathShowsTheDashboardWhichRefreshesItselfThereAndLeaksNoReferer() async throws {
        let path = try await dashboardPath()
        let code = try await client.get("/emulator/v1/users/totp@example.com/totp").data?["code"] as? String ?? "missing"
        let browser = EmulatorClient(baseURL: emulator.baseURL) // no token, no cookie: only the address
        let page = try await browser.get(path)
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        expectQuietly(page.text.contains("Current TOTP code") && page.text.contains("totp@example.com"), "the users table")
        let codeAfter = try await client.get("/emulator/v1/users/totp@example.com/totp").data?["code"] as? String ?? "missing"
        #expect([code, codeAfter].contains { page.text.contains("<code class=\"totp\">\($0)</code>") })
        // It refreshes at the address it was opened at (a refresh without a URL), with the key.
        expectQuietly(page.text.contains(#"<meta http-equiv="refresh" content="5">"#), "a refresh to the same address")
        expectQuietly(page.text.contains("Content-Security-Policy"), "the page's CSP")
        #expect(page.header("Cache-Control") == "no-store")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(page.header("Set-Cookie") == nil)
        let key = String(path.dropFirst("/dashboard/".count).dropLast())
        expectQuietly(!page.text.contains(key), "the page does not repeat its key")
        expectQuietly(!page.text.contains(emulator.adminToken), "the page does not show the admin token")
        // The admin token still opens the dashboard at / (harmless: it opens everything).
        #expect(try await client.get("/").status == 200)
    }

    @Test func aWrongKeyOrAnyOtherPathUnderDashboardAnswers401WithNothing() async throws {
        let path = try await dashboardPath()
        let key = String(path.dropFirst("/dashboard/".count).dropLast())
        let browser = EmulatorClient(baseURL: emulator.baseURL)
        let wrong = [
            "/dashboard/\(AdminTokenTests.randomLookalike(prefix: "pad_"))/", "/dashboard/", "/dashboard/\(key)",
            "/dashboard/\(key)x/", "/dashboard/\(key)/more", "/dashboard/\(key.dropLast())/", "/dashboard/\(emulator.adminToken)/"
        ]
        for candidate in wrong {
            let answer = try await browser.get(candidate)
            #expect(answer.status == 401)
            #expect(answer.body.isEmpty)
            #expect(answer.header("Set-Cookie") == nil)
            // The admin token does not stand in for the key there either.
            #expect(try await browser.get(candidate, headers: ["Authorization": "Bearer \(emulator.adminToken)"]).status == 401)
        }
        // The right path still answers, so the refusals above are about the key.
        #expect(try await browser.get(path).status == 200)
    }

    @Test func theOldTokenAddressAndCookieOpenNothingAndSetNothing() async throws {
        let token = emulator.adminToken
        let stranger = EmulatorClient(baseURL: emulator.baseURL)
        let visit = try await stranger.get("/?token=\(token)")
        #expect(visit.status == 401)
        #expect(visit.body.isEmpty)
        #expect(visit.header("Set-Cookie") == nil)
        #expect(visit.location == nil)
        #expect(try await stranger.get("/").status == 401)
        for name in ["portal-auth-emulator-\(emulator.port)", "token"] {
            #expect(try await stranger.get("/", headers: ["Cookie": "\(name)=\(token)"]).status == 401)
            #expect(try await stranger.get("/emulator/v1/state", headers: ["Cookie": "\(name)=\(token)"]).status == 401)
        }
    }

    @Test func theDashboardKeyDoesNotOpenTheAdministrationAPI() async throws {
        let path = try await dashboardPath()
        let key = String(path.dropFirst("/dashboard/".count).dropLast())
        let stranger = EmulatorClient(baseURL: emulator.baseURL)
        for request in AdminTokenTests.adminRequests where !request.path.hasPrefix("/dashboard/") {
            let answer =
                if let body = request.body {
                    try await stranger.post(request.path, json: body, headers: ["Authorization": "Bearer \(key)"])
                } else {
                    try await stranger.send(request.method, request.path, headers: ["Authorization": "Bearer \(key)"])
                }
            #expect(answer.status == 401, "\(request.method) \(request.path) with the dashboard key as Bearer")
            #expect(answer.body.isEmpty)
        }
        #expect(try await stranger.get("/emulator/v1/dashboard", headers: ["Cookie": "dashboard=\(key)"]).status == 401)
        #expect(try await stranger.get(path + "../../emulator/v1/state").status != 200)
    }

    @Test func theKeyAppearsInNoLog() async throws {
        let path = try await dashboardPath()
        let key = String(path.dropFirst("/dashboard/".count).dropLast())
        let browser = EmulatorClient(baseURL: emulator.baseURL)
        _ = try await browser.get(path)
        _ = try await browser.get("/dashboard/\(key)x/")
        _ = try await browser.get("/api/v3/clients/\(key)")
        let log = emulator.log()
        #expect(log.contains("GET /dashboard/… 200") && log.contains("GET /dashboard/… 401"), "the visits are logged, key left out")
        expectQuietly(!log.contains(key) && !log.contains("pad_"), "the key is not in the request log")
        let listed = try await client.get("/emulator/v1/requests").text + (try await browser.get(path).text)
        expectQuietly(listed.contains("/dashboard/…"), "the requests list the dashboard's visits")
        expectQuietly(!listed.contains(key), "the key is not in the requests the admin API and the dashboard list")
    }
}

/// How a person finds the dashboard: the start-up line, or the admin API for a script that did not
/// see it (script/run reusing a running emulator).
@Suite("Dashboard: its address")
struct DashboardAddressTests {
    @Test func theAdminAPIGivesTheAddressTheStartUpPrintedToTheTokenOnly() async throws {
        let child = try ChildEmulator()
        defer { child.stop() }
        let printed = String((child.startUpLines.dropFirst().first ?? "").dropFirst("dashboard: ".count))
        let tokenFile = String(child.startUpLines.last?.dropFirst("admin token file: ".count) ?? "")
        let token = (try? String(contentsOfFile: tokenFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let key = String(printed.dropFirst(child.baseURL.absoluteString.count + "/dashboard/".count).dropLast())
        expectQuietly(
            key.hasPrefix("pad_") && key.count == 47
                && key.dropFirst(4).allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" },
            "the key is pad_ and 43 base64url characters")
        expectQuietly(printed == "\(child.baseURL.absoluteString)/dashboard/\(key)/", "the printed address is /dashboard/KEY/")
        expectQuietly(!key.contains(token) && !token.contains(key.dropFirst(4)), "the key is not the admin token")

        let owner = EmulatorClient(baseURL: child.baseURL, adminToken: token)
        let given = try await owner.dashboardURL()
        expectQuietly(given == printed, "the admin API gives the printed address")
        let stranger = EmulatorClient(baseURL: child.baseURL)
        let refused = try await stranger.get("/emulator/v1/dashboard")
        #expect(refused.status == 401)
        #expect(refused.body.isEmpty)
        #expect(try await stranger.get("/emulator/v1/dashboard", headers: ["Authorization": "Bearer \(key)"]).status == 401)
        #expect(try await stranger.get(printed).status == 200)

        // Another run, another key.
        let other = try ChildEmulator()
        defer { other.stop() }
        let otherKey = (other.startUpLines.dropFirst().first ?? "").split(separator: "/").dropFirst(3).first.map(String.init) ?? ""
        expectQuietly(otherKey.hasPrefix("pad_") && otherKey != key, "each run makes its own key")
    }
}
