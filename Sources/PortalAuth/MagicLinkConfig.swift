/// What Portal needs to send a magic-link email: the sender address and the email template.
/// Only `sendMagicLink` uses it; OAuth-only apps leave it out.
public struct MagicLinkConfig: Sendable, Equatable {
    public let fromEmail: String
    public let templateId: String

    public init(fromEmail: String, templateId: String) {
        self.fromEmail = fromEmail
        self.templateId = templateId
    }
}
