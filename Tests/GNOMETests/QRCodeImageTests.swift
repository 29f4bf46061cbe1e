import AuthTestSupport
import Foundation
import PortalAuthGNOME
import Testing

/// `TotpRequiredResult.qrCodeImage(scale:)`: the enrolment link as a QR code an authenticator app
/// scans, read back here by zbar (`zbarimg`) from the PNG a GTK app would load.
@Suite struct QRCodeImageTests {
    /// 104 bytes: at level M it needs version 6 (85 to 106 bytes); L would fit in 5, Q needs 8, H 9.
    static let link = "otpauth://totp/Portal:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Portal&digits=6"

    private func step(_ link: String? = QRCodeImageTests.link) -> TotpRequiredResult {
        TotpRequiredResult(userJwt: Secrets.userJwt, totpLink: link, endUserId: "eu_1")
    }

    /// What zbar reads in `png`, each symbol's data on a line.
    private func scanned(_ png: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("totp.png")
        try png.write(to: file)
        let result = Subprocess.run("/usr/bin/zbarimg", ["--quiet", "--raw", file.path])
        try #require(result.status == 0, "zbarimg found no QR code (status \(result.status))")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    @Test func thePNGScansBackToTheLink() throws {
        try #require((85...106).contains(Self.link.utf8.count))
        let image = try step().qrCodeImage()
        #expect(try scanned(image.pngData()) == Self.link)
    }

    @Test func eachModuleIsScalePixelsAndTheSymbolIsTheSmallestAtLevelM() throws {
        let image = try step().qrCodeImage(scale: 3)
        #expect(image.version == 6)
        #expect(image.width == (17 + 4 * 6 + 2 * 4) * 3)
        #expect(image.height == image.width)
        #expect(image.pixels.count == image.width * image.height)
        #expect(try scanned(image.pngData()) == Self.link)
    }

    @Test func theQuietZoneIsFourLightModules() throws {
        let image = try step().qrCodeImage(scale: 5)
        let border = 4 * 5
        func pixel(_ x: Int, _ y: Int) -> UInt8 { image.pixels[y * image.width + x] }
        var lightBorder = true
        for y in 0..<image.height {
            for x in 0..<image.width where x < border || y < border || x >= image.width - border || y >= image.height - border {
                lightBorder = lightBorder && pixel(x, y) == 255
            }
        }
        #expect(lightBorder, "a dark pixel in the quiet zone")
        // The finder patterns' outer corners come right after it.
        #expect(pixel(border, border) == 0)
        #expect(pixel(image.width - border - 1, border) == 0)
        #expect(pixel(border, image.height - border - 1) == 0)
    }

    @Test func theFormatBitsSayLevelM() throws {
        let image = try step().qrCodeImage(scale: 4)
        func dark(_ row: Int, _ column: Int) -> Bool {
            image.pixels[((4 + row) * 4 + 2) * image.width + (4 + column) * 4 + 2] == 0
        }
        // The copy of the 15 format bits beside the top-left finder pattern.
        let cells = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (7, 8), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
        let read = cells.reduce(0) { $0 << 1 | (dark($1.0, $1.1) ? 1 : 0) }
        let reversed = cells.reversed().reduce(0) { $0 << 1 | (dark($1.0, $1.1) ? 1 : 0) }
        let levels = ["M": 0b00, "L": 0b01, "H": 0b10, "Q": 0b11]
        let matching = levels.filter { _, bits in
            (0..<8).map { Self.formatCode(level: bits, mask: $0) }.contains { $0 == read || $0 == reversed }
        }.map(\.key)
        #expect(matching == ["M"])
    }

    /// ISO/IEC 18004 §7.9: 5 data bits, 10 BCH bits (generator 10100110111), masked with 101010000010010.
    static func formatCode(level: Int, mask: Int) -> Int {
        let data = level << 3 | mask
        var remainder = data << 10
        for bit in stride(from: 14, through: 10, by: -1) where remainder & (1 << bit) != 0 {
            remainder ^= 0b101_0011_0111 << (bit - 10)
        }
        return (data << 10 | remainder) ^ 0b101_0100_0001_0010
    }

    @Test func noLinkOrATextTooLongIsUnavailable() throws {
        #expect(throws: PortalAuthError.totpQrUnavailable) { try step(nil).qrCodeImage() }
        #expect(throws: PortalAuthError.totpQrUnavailable) { try step("").qrCodeImage() }
        // Version 40 at level M holds 2 331 bytes.
        #expect(throws: PortalAuthError.totpQrUnavailable) { try step(Self.link + String(repeating: "x", count: 2_300)).qrCodeImage() }
        #expect(throws: PortalAuthError.invalidArgument(name: "scale")) { try step().qrCodeImage(scale: 0) }
    }

    @Test func thePNGIsGreyscaleWithTheImagesSize() throws {
        let image = try step().qrCodeImage(scale: 2)
        let png = [UInt8](image.pngData())
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == image.width && height == image.height)
        #expect(png[24] == 8 && png[25] == 0, "not 8-bit greyscale")
    }
}
