import Foundation

/// The JSON Portal's v3 client-auth API sends and receives. Response fields are read
/// leniently: a field of the wrong type counts as missing, and the caller decides whether a
/// missing field is fatal.
enum WirePath {
    static let methods = "/api/v3/auth/methods"
    static let oauthUrls = "/api/v3/auth/oauth/urls"
    static let oauthTokens = "/api/v3/auth/oauth/tokens"
    static let magicLinks = "/api/v3/auth/magic-links"
    static let magicLinkValidations = "/api/v3/auth/magic-links/validations"
    static let totpValidations = "/api/v3/auth/totps/validations"
    static let clientsMe = "/api/v3/clients/me"
}

// MARK: Request bodies

struct GrantTokenBody: Encodable, Sendable {
    let token: String
}

struct TotpCodeBody: Encodable, Sendable {
    let code: String
}

/// `isAccountAbstracted` is left out of the JSON when nil.
struct MagicLinkBody: Encodable, Sendable {
    let email: String
    let redirectUrl: String
    let fromEmail: String
    let templateId: String
    let isAccountAbstracted: Bool?
}

// MARK: Response bodies (the value of "data")

struct Envelope<Payload: Decodable>: Decodable {
    let data: Payload?
}

struct MethodsData: Decodable {
    let allowedAuthMethods: [String]?
    let autoCreateWallet: Bool?

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        allowedAuthMethods = c.lenient(.allowedAuthMethods)
        autoCreateWallet = c.lenient(.autoCreateWallet)
    }

    private enum Keys: String, CodingKey { case allowedAuthMethods, autoCreateWallet }
}

struct OAuthUrlsData: Decodable {
    let google: String?
    let apple: String?

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        google = c.lenient(.google)
        apple = c.lenient(.apple)
    }

    private enum Keys: String, CodingKey { case google, apple }
}

/// The answer to a grant exchange (OAuth tokens and magic-link validations share it).
struct GrantData: Decodable {
    let endUserId: String?
    let clientId: String?
    let clientSessionToken: String?
    let isAccountAbstracted: Bool?
    let userJwt: String?
    let totpLink: String?

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        endUserId = c.lenient(.endUserId)
        clientId = c.lenient(.clientId)
        clientSessionToken = c.lenient(.clientSessionToken)
        isAccountAbstracted = c.lenient(.isAccountAbstracted)
        userJwt = c.lenient(.userJwt)
        totpLink = c.lenient(.totpLink)
    }

    private enum Keys: String, CodingKey {
        case endUserId, clientId, clientSessionToken, isAccountAbstracted, userJwt, totpLink
    }
}

struct TotpValidationData: Decodable {
    let clientId: String?
    let clientSessionToken: String?
    let isAccountAbstracted: Bool?

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        clientId = c.lenient(.clientId)
        clientSessionToken = c.lenient(.clientSessionToken)
        isAccountAbstracted = c.lenient(.isAccountAbstracted)
    }

    private enum Keys: String, CodingKey { case clientId, clientSessionToken, isAccountAbstracted }
}

struct ClientData: Decodable {
    let id: String?
    let endUserId: String?
    let isAccountAbstracted: Bool?

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = c.lenient(.id)
        endUserId = c.lenient(.endUserId)
        isAccountAbstracted = c.lenient(.isAccountAbstracted)
    }

    private enum Keys: String, CodingKey { case id, endUserId, isAccountAbstracted }
}

/// Any JSON object: for answers whose content the core does not need (`{"sent":true}`).
struct AnyJSONObject: Decodable {
    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// `{"error":"…"}`, Portal's error body.
struct ErrorBody: Decodable {
    let error: String
}

extension KeyedDecodingContainer {
    /// The value for `key`, or nil when it is absent, null or of another type.
    func lenient<T: Decodable>(_ key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }
}
