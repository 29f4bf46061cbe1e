import Foundation

/// The backend's memory of Apple `sub` → end-user email, filled at first consent, and a history of
/// what each form_post carried (shown by `GET /emulator/v1/state` so tests can see the model at work).
final class AppleSubjects {
    struct Receipt {
        let environmentId: String
        let sub: String
        let emailInForm: Bool
        let endUserEmail: String?
    }
    private var emails: [String: String] = [:]
    private(set) var receipts: [Receipt] = []

    func received(_ receipt: Receipt) { receipts.append(receipt) }

    func record(environmentId: String, sub: String, email: String) { emails[environmentId + "\n" + sub] = email }
    func email(environmentId: String, sub: String) -> String? { emails[environmentId + "\n" + sub] }
}
