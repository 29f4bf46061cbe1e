import FoundationEssentials
import Glibc

/// Who is on the other end of a loopback TCP connection. Loopback is shared by every user of the
/// computer, so a request to the redirect port proves nothing by itself; the kernel's socket table
/// (`/proc/net/tcp`, readable by everyone, unaffected by `hidepid`) names the owner of the
/// connecting socket, which for the user's own browser is the user.
enum LoopbackPeer {
    /// The uid owning the socket bound to 127.0.0.1:`peerPort` and connected to 127.0.0.1:`localPort`,
    /// or nil when the table has no such connection (it went away, or it is not IPv4 loopback).
    static func ownerUID(peerPort: UInt16, localPort: UInt16, table: String? = readTable()) -> uid_t? {
        guard let table else { return nil }
        let peer = address(port: peerPort)
        let local = address(port: localPort)
        for line in table.split(separator: "\n").dropFirst() {
            // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, fields[1] == peer, fields[2] == local else { continue }
            return uid_t(fields[7])
        }
        return nil
    }

    /// Whether the connection from `peerPort` belongs to a program of this process's user.
    static func isThisUser(peerPort: UInt16, localPort: UInt16) -> Bool {
        ownerUID(peerPort: peerPort, localPort: localPort) == getuid()
    }

    /// 127.0.0.1:PORT as the table writes it: the address as the host-order number of its network bytes.
    private static func address(port: UInt16) -> Substring {
        let host = hex(UInt32(0x7F00_0001).bigEndian, digits: 8)
        return Substring(host + ":" + hex(UInt32(port), digits: 4))
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func readTable() -> String? {
        let fd = open("/proc/net/tcp", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
