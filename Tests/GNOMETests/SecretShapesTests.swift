import Testing

/// The CLI suites' leak check (`SecretShapes`) must see every shape it is there for, or every
/// `expectNone` would pass whatever the CLI printed. Samples are built from pieces, so this file
/// holds no secret-shaped text itself.
@Suite struct SecretShapesTests {
    private static let long = String(repeating: "A", count: 20)
    private static let base32 = String(repeating: "JBSWY3DP", count: 4)

    /// Each shape by name: the names, not the samples, are the test's arguments, so neither a
    /// passing nor a failing run prints a secret-shaped sample (the run's own scan would flag it).
    static let shapes: [String: String] = [
        "grant": "grant pg_" + long,
        "session token": "token pst_" + long,
        "JWT": "jwt " + "eyJ" + long + "." + "eyJ" + long + ".sig",
        "padded JWT": "padded " + "eyJ" + long + "==." + "eyJ" + long,
        "otpauth link": "link otpauth" + "://totp/Portal?secret=x",
        "base32 TOTP secret": "secret " + base32 + ".",
        "grouped TOTP secret": "grouped " + Array(repeating: "JBSW", count: 8).joined(separator: " "),
        "Discord code": "code discordc_" + long,
        "X code": "code xc_" + long,
        "percent-encoded grant": "%22token%22%3A%22pg_" + long,
        "PKCE verifier": "verifier code_verifier=" + String(repeating: "v", count: 43),
        "private key": #"{"privateKey":""# + String(repeating: "k", count: 64) + #""}"#
    ]

    @Test(arguments: shapes.keys.sorted())
    func findsEveryShape(_ name: String) {
        let found = SecretShapes.contains(Self.shapes[name]!)
        #expect(found, "the \(name) shape was not recognised")
    }

    @Test func leavesOrdinaryOutputAlone() {
        let ordinary =
            #"{"result":"authenticated","endUserId":"d420e320-9d94-457c","provider":"GOOGLE"}"# + "\n"
            + "Error: the login keyring is locked. Unlock it, then run the command again.\n"
            // A random OAuth state may hold "xc_" or "pg_" in its middle (this failed a clean run once).
            + "authorize?state=TItmaBiIjxc_" + Self.long + "&code_challenge=Qpg_" + Self.long
        #expect(!SecretShapes.contains(ordinary))
    }

    @Test func masksOnlyWhatALaterCommandNeeds() {
        let jwt = "eyJ" + Self.long + "." + "eyJ" + Self.long + ".sig"
        let needed = #"{"result":"totpRequired","userJwt":"\#(jwt)"}"#
        let neededLeft = SecretShapes.contains(SecretShapes.maskingAllowed(needed))
        #expect(!neededLeft, "a totpRequired line's userJwt was not masked")
        let leaked = #"{"result":"authenticated","note":"\#(jwt)"}"#
        let leakedFound = SecretShapes.contains(SecretShapes.maskingAllowed(leaked))
        #expect(leakedFound, "a JWT outside the lines that may carry one was masked away")
    }
}
