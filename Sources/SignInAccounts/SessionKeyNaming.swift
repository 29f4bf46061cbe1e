/// Where another Turnkey sign-in stores its session: the configured key when it is free, else the
/// next of "key-2", "key-3"…, so a sign-in adds a session and never replaces one.
enum SessionKeyNaming {
    static func free(base: String, taken: Set<String>) -> String {
        if !taken.contains(base) { return base }
        var number = 2
        while taken.contains("\(base)-\(number)") { number += 1 }
        return "\(base)-\(number)"
    }
}
