import AuthTestSupport
import Testing

@testable import AuthBase

@Suite("Query strings as Portal's SDKs read them")
struct QueryStringTests {
    private func query(_ url: String) -> [String: String] { URLText(url).queryParameters }

    @Test func lastOccurrenceWins() {
        #expect(query("app://cb?token=first&token=second")["token"] == "second")
    }

    @Test func onlyTheFirstEqualsSeparatesNameAndValue() {
        // Base64 padding and nested pairs stay in the value.
        let parameters = query("app://cb?token=pg_ab==&state=a=b")
        #expect(parameters["token"] == "pg_ab==")
        #expect(parameters["state"] == "a=b")
    }

    @Test func plusIsASpaceAndEscapesDecode() {
        let parameters = query("app://cb?error=oauth+failed%21&n=%C3%A9")
        #expect(parameters["error"] == "oauth failed!")
        #expect(parameters["n"] == "é")
    }

    @Test func aComponentWithAnyMalformedEscapeIsKeptWholeAsItArrived() {
        let parameters = query("app://cb?a=100%&b=%zz1&c=%4&d=%zz%41+x&e=ok%41+%")
        #expect(parameters["a"] == "100%")
        #expect(parameters["b"] == "%zz1")
        #expect(parameters["c"] == "%4")
        // Neither the valid %41 nor the + is decoded once one escape is malformed (Portal's iOS and Android SDKs).
        #expect(parameters["d"] == "%zz%41+x")
        #expect(parameters["e"] == "ok%41+%")
    }

    @Test func invalidUTF8LeavesTheValueAsItArrived() {
        #expect(query("app://cb?a=%FF%FE")["a"] == "%FF%FE")
    }

    @Test func fragmentIsIgnoredAndEmptyKeysSkipped() {
        let parameters = query("app://cb?a=1&&=x&flag#token=no?b=2")
        #expect(parameters["a"] == "1")
        #expect(parameters["flag"] == "")
        #expect(parameters["token"] == nil)
        #expect(parameters["b"] == nil)
        #expect(parameters[""] == nil)
    }

    @Test func noQueryMeansNoParameters() {
        #expect(query("app://cb").isEmpty)
    }

    @Test func aCombiningMarkAfterADelimiterDoesNotHideTheDelimiter() {
        // As Swift Characters, "&\u{301}" and "=\u{301}" are single graphemes that are not "&" or "=".
        let parameters = query("app://cb?a=1&\u{301}token=x&b=\u{301}2")
        #expect(parameters["a"] == "1")
        #expect(parameters["\u{301}token"] == "x")
        #expect(parameters["b"] == "\u{301}2")
        #expect(query("app://cb?\u{301}token=x")["\u{301}token"] == "x")
    }

    @Test func rawValueIsTheStillEncodedLastOccurrence() {
        #expect(QueryString.rawValue("redirectUrl", in: "redirectUrl=a%3Ab&redirectUrl=c%3Ad") == "c%3Ad")
        #expect(QueryString.rawValue("missing", in: "a=1") == nil)
    }
}
