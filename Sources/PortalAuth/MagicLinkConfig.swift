/// What Portal needs to send a magic-link email: the sender address and the email template.
/// Only `sendMagicLink` uses it; OAuth-only apps leave it out.
public struct MagicLinkConfig: Sendable, Equatable {
    /// The address the sign-in email is sent from.
    public let fromEmail: String
    /// The ID of the email template, in Portal, that the sign-in email is made from.
    public let templateId: String

    /// The sender address and email template `sendMagicLink` passes to Portal.
    public init(fromEmail: String, templateId: String) {
        self.fromEmail = fromEmail
        self.templateId = templateId
    }
}
