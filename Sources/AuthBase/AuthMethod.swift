/// A sign-in method a Portal auth environment can allow.
public enum AuthMethod: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case emailMagicLink = "EMAIL_MAGIC_LINK"
    case google = "GOOGLE"
    case apple = "APPLE"
}
