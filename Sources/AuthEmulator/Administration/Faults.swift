import Foundation

/// Injected failures for one path, consumed one request at a time (`POST /emulator/v1/faults`).
struct Fault {
    enum Kind: String {
        /// Answer `status` with a JSON error, doing none of the work.
        case status
        /// Hold the request `seconds` without doing anything, then handle it normally (a slow server).
        case hang
        /// Do the work (e.g. spend the grant), then close the connection without a response.
        case drop
        /// Turnkey's `stamp_login` only: do the work, but the activity's first `pendingAnswers` answers
        /// (the submit's, then `get_activity`'s) say ACTIVITY_STATUS_PENDING, later ones COMPLETED.
        case pending
    }
    let path: String
    let kind: Kind
    var remaining: Int
    let status: Int
    let seconds: Int
    var pendingAnswers = 1

    var json: [String: Any] {
        ["path": path, "kind": kind.rawValue, "count": remaining, "status": status, "seconds": seconds, "pendingAnswers": pendingAnswers]
    }
}

final class FaultQueue {
    private(set) var faults: [Fault] = []

    func add(_ fault: Fault) { faults.append(fault) }

    /// The first pending fault for `path`, using up one of its count.
    func take(path: String) -> Fault? {
        guard let index = faults.firstIndex(where: { $0.path == path }) else { return nil }
        let fault = faults[index]
        faults[index].remaining -= 1
        if faults[index].remaining <= 0 { faults.remove(at: index) }
        return fault
    }
}
