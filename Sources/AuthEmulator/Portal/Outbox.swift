import Foundation

/// Magic-link emails the emulator "sent", newest last.
final class Outbox {
    struct Message {
        let email: String
        let link: String
        let sentAt: Date
    }
    private(set) var messages: [Message] = []

    func send(_ message: Message) { messages.append(message) }
}
