/// Who owns one IPv4 TCP socket, asked of the kernel by its exact connection (both addresses and
/// both ports) over netlink's sock_diag, as `ss` does: the message to send and the reading of the
/// answer. Loopback is shared by every user of the computer, so a connection to the redirect port
/// proves nothing until its owner is known. The socket calls are the platform layer's; this part is
/// pure, so it is fuzzed (`script/fuzz loopback`). Layouts: linux/netlink.h, linux/inet_diag.h.
package struct SocketOwnerQuery: Equatable, Sendable {
    /// An IPv4 endpoint: the address's four bytes in network order, and the port.
    package struct Endpoint: Equatable, Sendable {
        package let address: [UInt8]
        package let port: UInt16

        package init(address: [UInt8], port: UInt16) {
            precondition(address.count == 4, "an IPv4 address is four bytes")
            self.address = address
            self.port = port
        }

        package static func loopback(port: UInt16) -> Endpoint { Endpoint(address: [127, 0, 0, 1], port: port) }
    }

    /// The socket asked about: bound to `source`, connected to `destination`.
    package let source: Endpoint
    package let destination: Endpoint
    package let sequence: UInt32

    package init(source: Endpoint, destination: Endpoint, sequence: UInt32) {
        self.source = source
        self.destination = destination
        self.sequence = sequence
    }

    static let messageHeaderBytes = 16
    static let requestBytes = 56
    static let sockDiagByFamily: UInt16 = 20
    static let netlinkError: UInt16 = 2
    static let requestFlag: UInt16 = 1
    static let afInet: UInt8 = 2
    static let tcp: UInt8 = 6
    /// `inet_diag_msg`: family, state, timer, retrans (4), the socket id (48), expires, rqueue, wqueue (12), then uid.
    static let uidOffset = 64
    static let idOffset = 4

    /// `nlmsghdr` + `inet_diag_req_v2` for exactly this socket, in any TCP state.
    package var message: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.messageHeaderBytes + Self.requestBytes)
        Self.appendNative(UInt32(Self.messageHeaderBytes + Self.requestBytes), to: &bytes)
        Self.appendNative(Self.sockDiagByFamily, to: &bytes)
        Self.appendNative(Self.requestFlag, to: &bytes)
        Self.appendNative(sequence, to: &bytes)
        Self.appendNative(UInt32(0), to: &bytes) // the kernel's port id
        bytes += [Self.afInet, Self.tcp, 0, 0]
        Self.appendNative(UInt32.max, to: &bytes) // every state
        bytes += socketID
        Self.appendNative(UInt32(0), to: &bytes) // any interface
        Self.appendNative(UInt32.max, to: &bytes) // no cookie
        Self.appendNative(UInt32.max, to: &bytes)
        return bytes
    }

    /// `inet_diag_sockid` without its interface and cookie: ports and addresses in network order.
    private var socketID: [UInt8] {
        var bytes: [UInt8] = []
        bytes += [UInt8(source.port >> 8), UInt8(source.port & 0xFF), UInt8(destination.port >> 8), UInt8(destination.port & 0xFF)]
        bytes += source.address + [UInt8](repeating: 0, count: 12)
        bytes += destination.address + [UInt8](repeating: 0, count: 12)
        return bytes
    }

    /// The owner's uid in the kernel's answer to `message`, or nil when there is no such socket (it
    /// closed meanwhile), the answer is an error, or it is not the answer to this very query.
    package func owner(inAnswer answer: [UInt8]) -> UInt32? {
        guard answer.count >= Self.messageHeaderBytes,
            let length = Self.readNative(UInt32.self, answer, at: 0), Int(length) <= answer.count,
            Int(length) >= Self.messageHeaderBytes,
            Self.readNative(UInt16.self, answer, at: 4) == Self.sockDiagByFamily,
            Self.readNative(UInt32.self, answer, at: 8) == sequence
        else { return nil }
        let body = Array(answer[Self.messageHeaderBytes..<Int(length)])
        guard body.count >= Self.uidOffset + 4, body[0] == Self.afInet,
            Array(body[Self.idOffset..<(Self.idOffset + socketID.count)]) == socketID
        else { return nil }
        return Self.readNative(UInt32.self, body, at: Self.uidOffset)
    }

    private static func appendNative<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes += $0 }
    }

    private static func readNative<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T? {
        guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
        var value = T.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<(offset + MemoryLayout<T>.size)]) }
        return value
    }
}
