/// The process exit status; with several redirect URLs, the last one's.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
    case notForThisApp = 3
    case unauthorized = 4
    case authenticationFailed = 5
    case sessionStorage = 6
    case transport = 7
    case invalidResponse = 8
    case rateLimited = 9
    case unavailable = 10
}
