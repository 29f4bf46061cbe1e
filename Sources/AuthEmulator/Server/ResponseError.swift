/// A handler's refusal, turned into `{"error":…}` with its status by the router.
struct ResponseError: Error {
    let status: Int
    let message: String
    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
    var response: EmulatorResponse { .error(status, message) }
}
