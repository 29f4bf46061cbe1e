import Testing

@testable import AuthBase

@Suite("Loopback request head", .timeLimit(.minutes(1)))
struct LoopbackRequestHeadTests {
    static let redirect = Array("GET /auth/callback?token=pg_1&login_type=GOOGLE HTTP/1.1\r\nHost: 127.0.0.1:8791\r\n\r\n".utf8)

    @Test func aCompleteHeadGivesItsMethodAndTargetAsSent() {
        #expect(
            LoopbackRequestHead(Self.redirect)
                == .complete(.init(method: "GET", target: "/auth/callback?token=pg_1&login_type=GOOGLE")))
    }

    @Test func theSameHeadReadOneByteAtATimeEndsAtItsBlankLineOnly() {
        var reader = LoopbackRequestHead.Reader()
        for (index, byte) in Self.redirect.enumerated() {
            let verdict = reader.append([byte])
            if index < Self.redirect.count - 1 {
                #expect(verdict == .incomplete, "ended at byte \(index)")
            } else {
                #expect(verdict == LoopbackRequestHead(Self.redirect))
            }
        }
    }

    @Test(arguments: [
        "not http at all\r\n\r\n", "GET /cb HTTP/2\r\n\r\n", "GET  /cb HTTP/1.1\r\n\r\n", "GET /c\u{7F}b HTTP/1.1\r\n\r\n",
        " /cb HTTP/1.1\r\n\r\n", "GET /cb\tHTTP/1.1\r\n\r\n"
    ])
    func aHeadThatIsNotHTTP1WithAPrintableTargetHasNoRequestLine(head: String) {
        #expect(LoopbackRequestHead(Array(head.utf8)) == .complete(nil))
    }

    @Test func aHeadWithoutItsBlankLineWithinTheBoundIsTooLarge() {
        let long = Array("GET /cb HTTP/1.1\r\nX: ".utf8) + [UInt8](repeating: 0x61, count: LoopbackRequestHead.maxBytes)
        #expect(LoopbackRequestHead(Array(long.prefix(LoopbackRequestHead.maxBytes))) == .incomplete)
        #expect(LoopbackRequestHead(long) == .tooLarge)
        #expect(LoopbackRequestHead(long + Array("\r\n\r\n".utf8)) == .tooLarge)
    }
}

@Suite("Socket owner query (sock_diag)", .timeLimit(.minutes(1)))
struct SocketOwnerQueryTests {
    static let query = SocketOwnerQuery(source: .loopback(port: 40_000), destination: .loopback(port: 8791), sequence: 7)

    /// The kernel's answer to `query`, as linux/inet_diag.h lays it out, naming `uid`.
    static func answer(to query: SocketOwnerQuery, uid: UInt32, type: UInt16 = 20, sequence: UInt32? = nil) -> [UInt8] {
        let message = query.message
        var body: [UInt8] = [2, 1, 0, 0] + Array(message[24..<72]) + [UInt8](repeating: 0, count: 12)
        body += withUnsafeBytes(of: uid) { Array($0) } + [0, 0, 0, 0]
        var answer = withUnsafeBytes(of: UInt32(16 + body.count)) { Array($0) }
        answer += withUnsafeBytes(of: type) { Array($0) } + [0, 0]
        answer += withUnsafeBytes(of: sequence ?? query.sequence) { Array($0) } + [0, 0, 0, 0]
        return answer + body
    }

    @Test func theRequestAsksForExactlyThisConnectionInAnyState() {
        let message = Self.query.message
        #expect(message.count == 72)
        #expect(Array(message[4..<6]) == withUnsafeBytes(of: UInt16(20)) { Array($0) }, "SOCK_DIAG_BY_FAMILY")
        #expect(Array(message[16..<18]) == [2, 6], "AF_INET, TCP")
        #expect(Array(message[20..<24]) == [0xFF, 0xFF, 0xFF, 0xFF], "every state")
        #expect(Array(message[24..<28]) == [0x9C, 0x40, 0x22, 0x57], "both ports, network order")
        #expect(Array(message[28..<32]) == [127, 0, 0, 1] && Array(message[44..<48]) == [127, 0, 0, 1])
    }

    @Test func theOwnerIsReadFromTheAnswerToThisQuery() {
        #expect(Self.query.owner(inAnswer: Self.answer(to: Self.query, uid: 1000)) == 1000)
        #expect(Self.query.owner(inAnswer: Self.answer(to: Self.query, uid: 65534)) == 65534)
    }

    @Test func anErrorAnotherQuerysAnswerOrAShortAnswerNamesNoOwner() {
        #expect(Self.query.owner(inAnswer: Self.answer(to: Self.query, uid: 0, type: 2)) == nil, "NLMSG_ERROR")
        #expect(Self.query.owner(inAnswer: Self.answer(to: Self.query, uid: 0, sequence: 8)) == nil, "another sequence")
        let otherPeer = SocketOwnerQuery(
            source: .init(address: [127, 0, 0, 2], port: 40_000), destination: .loopback(port: 8791), sequence: 7)
        #expect(Self.query.owner(inAnswer: Self.answer(to: otherPeer, uid: 0)) == nil, "about 127.0.0.2")
        let whole = Self.answer(to: Self.query, uid: 0)
        for length in [0, 15, 16, 80, 83] {
            #expect(Self.query.owner(inAnswer: Array(whole.prefix(length))) == nil, "cut to \(length) bytes")
        }
    }
}
