import AuthBase

// libFuzzer's entry point for what any local program can send the loopback redirect port, and what
// the kernel answers about who sent it. An input is one control byte and bytes:
//   control bits 0-3: the size of the pieces the head arrives in (1 to 16 bytes; 0: all at once),
//   bit 4: the bytes are also read as the kernel's sock_diag answer, bits 5 and 6 both set: the head
//   is padded to near LoopbackRequestHead.maxBytes (the size bound fuzzed without long inputs).
// Any broken property stops the run with `fatalError`, which libFuzzer records as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLoopback(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    var bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if control & 0x60 == 0x60 {
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: LoopbackRequestHead.maxBytes - 8)
    }
    HeadProperties.check(bytes, piece: Int(control & 0x0F))
    if control & 0x10 != 0 { OwnerProperties.check(Array(bytes.prefix(512))) }
    return 0
}

func require(_ condition: Bool, _ property: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property broken: \(property())") }
}

/// The head read piece by piece ends where a naive reading says, and its request line is what a
/// plain splitter finds.
enum HeadProperties {
    static func check(_ bytes: [UInt8], piece: Int) {
        // As the listener reads: piece after piece until the head is no longer incomplete.
        var reader = LoopbackRequestHead.Reader()
        var verdict = LoopbackRequestHead.incomplete
        var offset = 0
        while offset < bytes.count, verdict == .incomplete {
            let end = piece == 0 ? bytes.count : min(bytes.count, offset + piece)
            verdict = reader.append(bytes[offset..<end])
            offset = end
        }
        let read = Array(bytes[..<offset])
        require(verdict == LoopbackRequestHead(read), "read in pieces differs from read whole")
        let blank = naiveBlankLine(read)
        switch verdict {
        case .incomplete:
            require(offset == bytes.count, "stopped reading while incomplete")
            require(blank == nil && read.count <= LoopbackRequestHead.maxBytes, "incomplete although the head ended or is too large")
        case .tooLarge:
            require((blank ?? read.count) > LoopbackRequestHead.maxBytes, "too large although within the bound")
        case .complete(let line):
            let end = blank ?? -1
            require(end >= 0 && end <= LoopbackRequestHead.maxBytes, "complete without a blank line within the bound")
            require(line == reference(Array(read[..<end])), "the request line differs from the reference")
            if let line {
                require(line.method.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "unprintable method")
                require(line.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "unprintable target")
                require(read.starts(with: Array("\(line.method) \(line.target) HTTP/1.".utf8)), "the line is not what was sent")
            }
        }
    }

    static func naiveBlankLine(_ bytes: [UInt8]) -> Int? {
        let pattern: [UInt8] = [13, 10, 13, 10]
        return bytes.indices.first { bytes[$0...].starts(with: pattern) }
    }

    /// The first line (up to CR or LF) as three space-separated printable words, the third HTTP/1.*.
    static func reference(_ head: [UInt8]) -> LoopbackRequestHead.RequestLine? {
        var words: [[UInt8]] = [[]]
        for byte in head {
            if byte == 13 || byte == 10 { break }
            if byte == 32 { words.append([]) } else { words[words.count - 1].append(byte) }
        }
        func printable(_ word: [UInt8]) -> Bool { !word.isEmpty && word.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
        guard words.count == 3, printable(words[0]), printable(words[1]), words[2].starts(with: Array("HTTP/1.".utf8)) else {
            return nil
        }
        return LoopbackRequestHead.RequestLine(
            method: String(decoding: words[0], as: UTF8.self), target: String(decoding: words[1], as: UTF8.self))
    }
}

/// Any bytes as the kernel's answer name an owner only when they answer this very query; a
/// well-formed answer for the query always names its uid.
enum OwnerProperties {
    static func check(_ bytes: [UInt8]) {
        guard bytes.count >= 16 else { return }
        let query = SocketOwnerQuery(
            source: .init(address: Array(bytes[0..<4]), port: UInt16(bytes[4]) << 8 | UInt16(bytes[5])),
            destination: .init(address: Array(bytes[6..<10]), port: UInt16(bytes[10]) << 8 | UInt16(bytes[11])),
            sequence: UInt32(bytes[12]) | UInt32(bytes[13]) << 8)
        let answer = Array(bytes[14...])
        if let uid = query.owner(inAnswer: answer) {
            let message = query.message
            require(answer.count >= 16 + 68, "an owner read from a short answer")
            // The answer's socket id is the query's (ports, addresses), at the same place.
            require(Array(answer[20..<56]) == Array(message[24..<60]), "an owner read from an answer about another socket")
            require(withUnsafeBytes(of: uid) { Array($0) } == Array(answer[80..<84]), "the uid is not where the layout puts it")
        }
        // The kernel's answer to this query, built from the query itself, gives back its uid.
        let uid = UInt32(bytes[14]) << 24 | UInt32(bytes[15])
        require(query.owner(inAnswer: wellFormedAnswer(to: query, uid: uid)) == uid, "a well-formed answer was not read")
    }

    static func wellFormedAnswer(to query: SocketOwnerQuery, uid: UInt32) -> [UInt8] {
        let message = query.message
        var body: [UInt8] = [2, 1, 0, 0] + Array(message[24..<72]) + [UInt8](repeating: 0, count: 12)
        body += withUnsafeBytes(of: uid) { Array($0) } + [0, 0, 0, 0]
        var answer: [UInt8] = []
        answer += withUnsafeBytes(of: UInt32(16 + body.count)) { Array($0) }
        answer += withUnsafeBytes(of: UInt16(20)) { Array($0) } + [0, 0]
        answer += Array(message[8..<12]) + [0, 0, 0, 0]
        return answer + body
    }
}
