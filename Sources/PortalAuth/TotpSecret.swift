import FoundationEssentials

extension TotpRequiredResult {
    /// The base32 `secret=` of `totpLink`, upper-cased, for people who type it into their
    /// authenticator app; nil without a link, or when the secret is not valid base32 (RFC 4648: the
    /// letters A–Z and digits 2–7, a length a base32 encoding can have, `=` padding only at the end).
    public var totpSecret: String? {
        guard let link = totpLink, let secret = RedirectURL.queryParameters(of: link)["secret"] else { return nil }
        return Base32Secret.checked(secret)
    }
}

/// A TOTP secret as authenticator apps take it: RFC 4648 base32, upper case.
enum Base32Secret {
    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    /// Lengths (without padding) modulo 8 that whole bytes encode to: 1, 3 and 6 never occur.
    private static let encodedLengths: Set<Int> = [0, 2, 4, 5, 7]

    static func checked(_ text: String) -> String? {
        let secret = text.trimmed.uppercased()
        let data = secret.prefix { $0 != "=" }
        let padding = secret.dropFirst(data.count)
        guard !data.isEmpty, data.allSatisfy(alphabet.contains), encodedLengths.contains(data.count % 8),
            padding.allSatisfy({ $0 == "=" }), padding.isEmpty || secret.count % 8 == 0
        else { return nil }
        return secret
    }
}
