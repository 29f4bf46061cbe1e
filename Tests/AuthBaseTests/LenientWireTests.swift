import Foundation
import Testing

@testable import AuthBase

/// Portal's and Turnkey's answers decode leniently: a field that is missing, null or of another type
/// is nil (the core then decides whether that is fatal), other fields are ignored, and one bad field
/// never costs the others. Encoding leaves the nil fields out, as the emulator's answers need.
@Suite("Wire types: lenient response fields")
struct LenientWireTests {
    /// One response type with a value of the right type for each of its fields.
    struct WireType: CustomTestStringConvertible, Sendable {
        let name: String
        let good: [String: JSONValue]
        let roundTrip: @Sendable (Data) throws -> Data

        static func of<T: Codable & Sendable>(_ type: T.Type, _ good: [String: JSONValue]) -> WireType {
            WireType(name: String(describing: type), good: good) { data in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                return try encoder.encode(JSONDecoder().decode(T.self, from: data))
            }
        }

        var testDescription: String { name }

        /// The fields that survive decoding `object`, as the type encodes them again.
        func decoded(_ object: [String: JSONValue]) throws -> JSONValue? {
            JSONValue.parse(try roundTrip(try JSONEncoder().encode(JSONValue.object(object))))
        }
    }

    static let types: [WireType] = [
        .of(
            PortalWire.Methods.self,
            [
                "allowedAuthMethods": .array([.string("google"), .string("apple")]),
                "autoCreateWallet": .bool(true)
            ]),
        .of(
            PortalWire.OAuthUrls.self, ["google": .string("https://accounts.google.com/o"), "apple": .string("https://appleid.apple.com/a")]
        ),
        .of(
            PortalWire.Grant.self,
            [
                "endUserId": .string("eu-1"), "clientId": .string("c-1"), "clientSessionToken": .string("cst"),
                "isAccountAbstracted": .bool(false), "userJwt": .string("a.b.c"), "totpLink": .string("https://t")
            ]),
        .of(
            PortalWire.TotpValidation.self,
            [
                "clientId": .string("c-1"), "clientSessionToken": .string("cst"),
                "isAccountAbstracted": .bool(true)
            ]),
        .of(PortalWire.Client.self, ["id": .string("c-1"), "endUserId": .string("eu-1"), "isAccountAbstracted": .bool(false)]),
        .of(PortalWire.MagicLinkSent.self, ["sent": .bool(true)]),
        .of(TurnkeyWire.ErrorBody.self, ["code": .number(3), "message": .string("bad"), "details": .array([.object(["a": .string("b")])])]),
        .of(
            TurnkeyWire.WalletKitConfig.self,
            [
                "enabledProviders": .array([.string("google")]), "sessionExpirationSeconds": .string("900"),
                "organizationId": .string("org"), "oauthClientIds": .object(["google": .string("g-id")]),
                "oauthRedirectUrl": .string("https://r"), "otpAlphanumeric": .bool(true),
                "otpLength": .string("6")
            ]),
        .of(TurnkeyWire.AccountResponse.self, ["organizationId": .string("sub-org")]),
        .of(TurnkeyWire.OAuth2AuthenticateResponse.self, ["oidcToken": .string("h.p.s")]),
        .of(TurnkeyWire.OAuthLoginResponse.self, ["session": .string("h.p.s")]),
        .of(TurnkeyWire.SignupResponse.self, ["organizationId": .string("sub-org"), "userId": .string("u-1")]),
        .of(
            TurnkeyWire.WhoamiResponse.self,
            [
                "organizationId": .string("org"), "organizationName": .string("Org"),
                "userId": .string("u-1"), "username": .string("ada")
            ])
    ]

    /// A value of another JSON type than `value`.
    static func wrongType(for value: JSONValue) -> JSONValue {
        switch value {
        case .string: .number(7)
        case .number: .string("seven")
        case .bool: .string("true")
        case .array: .object(["a": .number(1)])
        case .object: .array([.string("a")])
        case .null: .number(0)
        }
    }

    @Test(arguments: types) func everyFieldOfTheRightTypeIsKept(_ type: WireType) throws {
        #expect(try type.decoded(type.good) == .object(type.good))
    }

    @Test(arguments: types) func missingFieldsAreNilAndLeftOutAgain(_ type: WireType) throws {
        #expect(try type.decoded([:]) == .object([:]))
    }

    @Test(arguments: types) func nullFieldsAreNil(_ type: WireType) throws {
        #expect(try type.decoded(type.good.mapValues { _ in .null }) == .object([:]))
    }

    @Test(arguments: types) func fieldsOfAnotherTypeAreNil(_ type: WireType) throws {
        #expect(try type.decoded(type.good.mapValues(Self.wrongType)) == .object([:]))
    }

    /// One bad field never costs the others.
    @Test(arguments: types) func eachBadFieldAloneCostsOnlyItself(_ type: WireType) throws {
        for (key, value) in type.good {
            var rest = type.good
            rest[key] = nil
            var oneWrong = type.good
            oneWrong[key] = Self.wrongType(for: value)
            #expect(try type.decoded(oneWrong) == .object(rest), "\(key) of another type")
            var oneNull = type.good
            oneNull[key] = .null
            #expect(try type.decoded(oneNull) == .object(rest), "\(key) null")
        }
    }

    @Test(arguments: types) func unknownFieldsAreIgnored(_ type: WireType) throws {
        var extra = type.good
        extra["addedLater"] = .string("x")
        extra["nested"] = .object(["deep": .array([.null])])
        #expect(try type.decoded(extra) == .object(type.good))
    }

    /// Lenient per field, not about the body: an answer that is not an object is no answer.
    @Test(arguments: types) func aBodyThatIsNotAnObjectIsRefused(_ type: WireType) {
        for body in ["[]", "\"text\"", "7", "null"] {
            #expect(throws: (any Error).self, "\(body)") { try type.roundTrip(Data(body.utf8)) }
        }
    }

    /// Inside the `{"data": …}` envelope the payload's fields stay lenient.
    @Test func theEnvelopeKeepsItsPayloadLenient() throws {
        let body = Data(#"{"data": {"allowedAuthMethods": "google", "autoCreateWallet": true}}"#.utf8)
        let envelope = try JSONDecoder().decode(PortalWire.Envelope<PortalWire.Methods>.self, from: body)
        #expect(envelope.data?.allowedAuthMethods == nil)
        #expect(envelope.data?.autoCreateWallet == true)
    }
}
