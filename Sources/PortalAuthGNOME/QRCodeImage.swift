import CAuthPlatform
import FoundationEssentials

/// A QR code as a picture: grey pixels, dark modules black (0) on white (255), with the 4-module
/// quiet zone scanners need, each module `scale` × `scale` pixels. `pngData()` is a PNG that
/// `gdk_texture_new_from_bytes` (GTK), GdkPixbuf or any image viewer loads.
public struct QRCodeImage: Sendable, Equatable {
    /// The light border around the symbol, in modules (ISO/IEC 18004 asks for 4).
    public static let quietZoneModules = 4

    /// Width in pixels: (symbol side + 2 × quiet zone) × `scale`.
    public let width: Int
    /// Height in pixels; equal to `width`.
    public let height: Int
    /// `width × height` grey values, row by row from the top-left: 0 for a dark module, 255 for light.
    public let pixels: [UInt8]
    /// Pixels per module.
    public let scale: Int
    /// The QR version (1–40) of the symbol: its side is 17 + 4 × version modules.
    public let version: Int

    /// `text` encoded in 8-bit mode at error-correction level M (15 % of the symbol can be lost), in
    /// the smallest version that holds it.
    ///
    /// - Throws: `PortalAuthError.invalidArgument(name: "scale")` for a scale below 1;
    ///   `PortalAuthError.totpQrUnavailable` when `text` is empty or too long for a QR code, or
    ///   libqrencode (`libqrencode.so.4`) is not installed.
    public init(encoding text: String, scale: Int) throws {
        guard scale >= 1 else { throw PortalAuthError.invalidArgument(name: "scale") }
        var modules: UnsafeMutablePointer<UInt8>?
        var version: Int32 = 0
        let side = Int(portal_qr_encode(text, &modules, &version))
        guard side > 0, let modules else { throw PortalAuthError.totpQrUnavailable }
        defer { portal_qr_free(modules) }

        let quiet = Self.quietZoneModules
        let extent = (side + 2 * quiet) * scale
        var pixels = [UInt8](repeating: 255, count: extent * extent)
        for y in 0..<side {
            for x in 0..<side where modules[y * side + x] != 0 {
                let left = (x + quiet) * scale
                for row in (y + quiet) * scale..<(y + quiet + 1) * scale {
                    let start = row * extent + left
                    pixels.replaceSubrange(start..<start + scale, with: repeatElement(0, count: scale))
                }
            }
        }
        self.width = extent
        self.height = extent
        self.pixels = pixels
        self.scale = scale
        self.version = Int(version)
    }

    /// The image as a PNG (8-bit greyscale, uncompressed deflate blocks).
    public func pngData() -> Data {
        GreyscalePNG.encode(width: width, height: height, pixels: pixels)
    }
}

extension TotpRequiredResult {
    /// The enrolment link (`totpLink`) as a QR code for the user's authenticator app to scan, as in
    /// PortalSwift: error-correction level M, a 4-module quiet zone, `scale` pixels per module.
    /// Show it only while `totpLink` is there (the user's first enrolment); `totpSecret` is the same
    /// secret for typing.
    ///
    /// - Throws: `PortalAuthError.totpQrUnavailable` when there is no `totpLink` or it cannot be
    ///   encoded; `.invalidArgument(name: "scale")` for a scale below 1.
    public func qrCodeImage(scale: Int = 10) throws -> QRCodeImage {
        guard let link = totpLink, !link.isEmpty else { throw PortalAuthError.totpQrUnavailable }
        return try QRCodeImage(encoding: link, scale: scale)
    }
}
