import FoundationEssentials

/// Portal's v3 client-auth API on the wire, shared by the client core and the emulator: paths,
/// headers and the JSON bodies. Response fields are `@Lenient` (a field of the wrong type counts
/// as missing; the caller decides whether missing is fatal) and encode without the nil ones.
package enum PortalWire {
    package enum Path {
        package static let methods = "/api/v3/auth/methods"
        package static let oauthUrls = "/api/v3/auth/oauth/urls"
        package static let oauthTokens = "/api/v3/auth/oauth/tokens"
        /// Followed by the auth environment ID: Google's GET and Apple's form_post land here.
        package static let oauthCallbackPrefix = "/api/v3/auth/oauth/callback/"
        package static let magicLinks = "/api/v3/auth/magic-links"
        package static let magicLinkValidations = "/api/v3/auth/magic-links/validations"
        package static let totpValidations = "/api/v3/auth/totps/validations"
        package static let clientsMe = "/api/v3/clients/me"
    }

    package enum Header {
        package static let environment = "x-portal-auth-environment-id"
        package static let trace = "X-Portal-Trace-Id"
    }

    /// The query names of the redirect into the app.
    package enum RedirectQuery {
        package static let token = "token"
        package static let error = "error"
        package static let authMethod = "authMethod"
        package static let loginType = "login_type"
    }

    /// `{"data": …}`, every success body.
    package struct Envelope<Payload: Codable>: Codable {
        package let data: Payload?
        package init(data: Payload) { self.data = data }
    }

    /// `{"error": "…"}`, every error body.
    package struct ErrorBody: Codable, Sendable {
        package let error: String
        package init(error: String) { self.error = error }
    }

    // MARK: Requests

    /// A grant to exchange (`oauth/tokens`, `magic-links/validations`).
    package struct GrantTokenBody: Codable, Sendable {
        package let token: String
        package init(token: String) { self.token = token }
    }

    package struct TotpCodeBody: Codable, Sendable {
        package let code: String
        package init(code: String) { self.code = code }
    }

    /// `isAccountAbstracted` is left out of the JSON when nil.
    package struct MagicLinkBody: Codable, Sendable {
        package let email: String
        package let redirectUrl: String
        package let fromEmail: String
        package let templateId: String
        package let isAccountAbstracted: Bool?

        package init(email: String, redirectUrl: String, fromEmail: String, templateId: String, isAccountAbstracted: Bool?) {
            self.email = email
            self.redirectUrl = redirectUrl
            self.fromEmail = fromEmail
            self.templateId = templateId
            self.isAccountAbstracted = isAccountAbstracted
        }
    }

    // MARK: Responses (the value of "data")

    package struct Methods: Codable, Sendable {
        @Lenient package private(set) var allowedAuthMethods: [String]?
        @Lenient package private(set) var autoCreateWallet: Bool?

        package init(allowedAuthMethods: [String]?, autoCreateWallet: Bool?) {
            self.allowedAuthMethods = allowedAuthMethods
            self.autoCreateWallet = autoCreateWallet
        }
    }

    /// An authorize URL for each provider Portal offers, under the provider's identifier (`google`,
    /// `apple`); read leniently, as `@Lenient` fields are.
    package struct OAuthUrls: Codable, Sendable {
        package private(set) var urls: [SignInProvider: String]

        package init(_ urls: [SignInProvider: String]) {
            self.urls = urls
        }

        package subscript(provider: SignInProvider) -> String? { urls[provider] }

        private struct Key: CodingKey {
            let stringValue: String
            init(_ provider: SignInProvider) { stringValue = provider.rawValue }
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var urls: [SignInProvider: String] = [:]
            for provider in SignInProvider.allCases where provider.offer(on: .portal) != nil {
                urls[provider] = (try? container.decodeIfPresent(String.self, forKey: Key(provider))) ?? nil
            }
            self.urls = urls
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (provider, url) in urls { try container.encode(url, forKey: Key(provider)) }
        }
    }

    /// The answer to a grant exchange (OAuth tokens and magic-link validations share it).
    package struct Grant: Codable, Sendable {
        @Lenient package private(set) var endUserId: String?
        @Lenient package private(set) var clientId: String?
        @Lenient package private(set) var clientSessionToken: String?
        @Lenient package private(set) var isAccountAbstracted: Bool?
        @Lenient package private(set) var userJwt: String?
        @Lenient package private(set) var totpLink: String?

        package init(
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

    package struct TotpValidation: Codable, Sendable {
        @Lenient package private(set) var clientId: String?
        @Lenient package private(set) var clientSessionToken: String?
        @Lenient package private(set) var isAccountAbstracted: Bool?

        package init(clientId: String?, clientSessionToken: String?, isAccountAbstracted: Bool?) {
            self.clientId = clientId
            self.clientSessionToken = clientSessionToken
            self.isAccountAbstracted = isAccountAbstracted
        }
    }

    /// `{"sent": true}` of `magic-links`.
    package struct MagicLinkSent: Codable, Sendable {
        @Lenient package private(set) var sent: Bool?
        package init(sent: Bool) { self.sent = sent }
    }
}
