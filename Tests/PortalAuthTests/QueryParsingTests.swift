import Testing
@testable import PortalAuth

@Suite("Redirect query parsing")
struct QueryParsingTests {
    @Test func lastOccurrenceWins() {
        let query = RedirectURL.queryParameters(of: "app://cb?token=first&token=second")
        #expect(query["token"] == "second")
    }

    @Test func plusIsASpaceAndEscapesDecode() {
        let query = RedirectURL.queryParameters(of: "app://cb?error=oauth+failed%21&n=%C3%A9")
        #expect(query["error"] == "oauth failed!")
        #expect(query["n"] == "é")
    }

    @Test func badPercentEscapeIsKeptRaw() {
        let query = RedirectURL.queryParameters(of: "app://cb?a=100%&b=%zz1&c=%4")
        #expect(query["a"] == "100%")
        #expect(query["b"] == "%zz1")
        #expect(query["c"] == "%4")
    }

    @Test func invalidUTF8LeavesTheValueAsItArrived() {
        #expect(RedirectURL.queryParameters(of: "app://cb?a=%FF%FE")["a"] == "%FF%FE")
    }

    @Test func fragmentIsIgnoredAndEmptyKeysSkipped() {
        let query = RedirectURL.queryParameters(of: "app://cb?a=1&&=x&flag#token=no?b=2")
        #expect(query["a"] == "1")
        #expect(query["flag"] == "")
        #expect(query["token"] == nil)
        #expect(query["b"] == nil)
        #expect(query[""] == nil)
    }

    @Test func noQueryMeansNoParameters() {
        #expect(RedirectURL.queryParameters(of: "app://cb").isEmpty)
    }
}
