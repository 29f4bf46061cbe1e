import AuthBase
import FoundationEssentials
import Glibc
import Synchronization

/// Who is on the other end of a loopback TCP connection. Loopback is shared by every user of the
/// computer, so a request to the redirect port proves nothing by itself: the kernel names the owner
/// of the connecting socket, found by the whole connection (both addresses, both ports) through
/// netlink's sock_diag, as `ss` asks it. Nothing is read from a connection before this says yes.
enum LoopbackPeer {
    enum Owner: Equatable {
        case thisUser
        /// Another user's program, or a peer that is not exactly 127.0.0.1, or a socket gone meanwhile.
        case someoneElse
        /// The kernel could not be asked (no descriptor left for the netlink socket): nothing is known.
        case unknown
    }

    /// Who owns the socket bound to `peer` and connected to `local`. The peer must be exactly
    /// 127.0.0.1, the address the redirect URL names and the browser connects from; any other
    /// address (127.0.0.2…) is someone else without asking.
    static func owner(peer: SocketOwnerQuery.Endpoint, local: SocketOwnerQuery.Endpoint) -> Owner {
        guard peer.address == [127, 0, 0, 1], local.address == [127, 0, 0, 1] else { return .someoneElse }
        guard let answer = ownerUID(of: SocketOwnerQuery(source: peer, destination: local, sequence: nextSequence())) else {
            return .unknown
        }
        return answer == getuid() ? .thisUser : .someoneElse
    }

    /// Whether a connection could be taken and its owner asked now: two descriptors to be had, one
    /// for the connection and one for the netlink socket.
    static func canAsk() -> Bool {
        let sockets = (0..<2).map { _ in socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkSockDiag) }
        for fd in sockets where fd >= 0 { close(fd) }
        return sockets.allSatisfy { $0 >= 0 }
    }

    /// NETLINK_SOCK_DIAG, from linux/netlink.h.
    private static let netlinkSockDiag: Int32 = 4

    /// The owner's uid; `.some(nil)` when the kernel knows no such socket (it closed meanwhile), nil
    /// when it could not be asked.
    static func ownerUID(of query: SocketOwnerQuery) -> uid_t?? {
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkSockDiag)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // The kernel answers at once; a second is a bound, not a wait anyone should see.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let message = query.message
        let sent = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == message.count else { return nil }
        var answer = [UInt8](repeating: 0, count: 1024)
        let count = answer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return .some(query.owner(inAnswer: Array(answer[..<count])))
    }

    private static let sequence = Mutex<UInt32>(0)

    private static func nextSequence() -> UInt32 {
        sequence.withLock { value in
            value &+= 1
            return value
        }
    }
}
