import FoundationEssentials

/// Portal's v3 client-auth API on the wire, shared by the client core and the emulator: paths,
/// headers and the JSON bodies. Response fields are `@Lenient` (a field of the wrong type counts
/// as missing; the caller decides whether missing is fatal) and encode without the nil ones.
public enum PortalWire {
    public enum Path {
        public static let methods = "/api/v3/auth/methods"
        public static let oauthUrls = "/api/v3/auth/oauth/urls"
        public static let oauthTokens = "/api/v3/auth/oauth/tokens"
        /// Followed by the auth environment ID: Google's GET and Apple's form_post land here.
        public static let oauthCallbackPrefix = "/api/v3/auth/oauth/callback/"
        public static let magicLinks = "/api/v3/auth/magic-links"
        public static let magicLinkValidations = "/api/v3/auth/magic-links/validations"
        public static let totpValidations = "/api/v3/auth/totps/validations"
        public static let clientsMe = "/api/v3/clients/me"
    }

    public enum Header {
        public static let environment = "x-portal-auth-environment-id"
        public static let trace = "X-Portal-Trace-Id"
    }

    /// The query names of the redirect into the app.
    public enum RedirectQuery {
        public static let token = "token"
        public static let error = "error"
        public static let authMethod = "authMethod"
        public static let loginType = "login_type"
    }

    /// `{"data": …}`, every success body.
    public struct Envelope<Payload: Codable>: Codable {
        public let data: Payload?
        public init(data: Payload) { self.data = data }
    }

    /// `{"error": "…"}`, every error body.
    public struct ErrorBody: Codable, Sendable {
        public let error: String
        public init(error: String) { self.error = error }
    }

    // MARK: Requests

    /// A grant to exchange (`oauth/tokens`, `magic-links/validations`).
    public struct GrantTokenBody: Codable, Sendable {
        public let token: String
        public init(token: String) { self.token = token }
    }

    public struct TotpCodeBody: Codable, Sendable {
        public let code: String
        public init(code: String) { self.code = code }
    }

    /// `isAccountAbstracted` is left out of the JSON when nil.
    public struct MagicLinkBody: Codable, Sendable {
        public let email: String
        public let redirectUrl: String
        public let fromEmail: String
        public let templateId: String
        public let isAccountAbstracted: Bool?

        public init(email: String, redirectUrl: String, fromEmail: String, templateId: String, isAccountAbstracted: Bool?) {
            self.email = email
            self.redirectUrl = redirectUrl
            self.fromEmail = fromEmail
            self.templateId = templateId
            self.isAccountAbstracted = isAccountAbstracted
        }
    }

    // MARK: Responses (the value of "data")

    public struct Methods: Codable, Sendable {
        @Lenient public private(set) var allowedAuthMethods: [String]?
        @Lenient public private(set) var autoCreateWallet: Bool?

        public init(allowedAuthMethods: [String]?, autoCreateWallet: Bool?) {
            self.allowedAuthMethods = allowedAuthMethods
            self.autoCreateWallet = autoCreateWallet
        }
    }

    /// An authorize URL for each provider Portal offers, under the provider's identifier (`google`,
    /// `apple`); read leniently, as `@Lenient` fields are.
    public struct OAuthUrls: Codable, Sendable {
        public private(set) var urls: [SignInProvider: String]

        public init(_ urls: [SignInProvider: String]) {
            self.urls = urls
        }

        public subscript(provider: SignInProvider) -> String? { urls[provider] }

        private struct Key: CodingKey {
            let stringValue: String
            init(_ provider: SignInProvider) { stringValue = provider.rawValue }
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var urls: [SignInProvider: String] = [:]
            for provider in SignInProvider.allCases where provider.offer(on: .portal) != nil {
                urls[provider] = (try? container.decodeIfPresent(String.self, forKey: Key(provider))) ?? nil
            }
            self.urls = urls
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (provider, url) in urls { try container.encode(url, forKey: Key(provider)) }
        }
    }

    /// The answer to a grant exchange (OAuth tokens and magic-link validations share it).
    public struct Grant: Codable, Sendable {
        @Lenient public private(set) var endUserId: String?
        @Lenient public private(set) var clientId: String?
        @Lenient public private(set) var clientSessionToken: String?
        @Lenient public private(set) var isAccountAbstracted: Bool?
        @Lenient public private(set) var userJwt: String?
        @Lenient public private(set) var totpLink: String?

        public init(
            endUserId: String?, clientId: String? = nil, clientSessionToken: String? = nil,
            isAccountAbstracted: Bool? = nil, userJwt: String? = nil, totpLink: String? = nil
        ) {
            self.endUserId = endUserId
            self.clientId = clientId
            self.clientSessionToken = clientSessionToken
            self.isAccountAbstracted = isAccountAbstracted
            self.userJwt = userJwt
            self.totpLink = totpLink
        }
    }

    public struct TotpValidation: Codable, Sendable {
        @Lenient public private(set) var clientId: String?
        @Lenient public private(set) var clientSessionToken: String?
        @Lenient public private(set) var isAccountAbstracted: Bool?

        public init(clientId: String?, clientSessionToken: String?, isAccountAbstracted: Bool?) {
            self.clientId = clientId
            self.clientSessionToken = clientSessionToken
            self.isAccountAbstracted = isAccountAbstracted
        }
    }

    /// `{"sent": true}` of `magic-links`.
    public struct MagicLinkSent: Codable, Sendable {
        @Lenient public private(set) var sent: Bool?
        public init(sent: Bool) { self.sent = sent }
    }
}
