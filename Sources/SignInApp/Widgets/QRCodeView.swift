import CSignInUI
import FoundationEssentials
import PortalAuthGNOME

/// An otpauth:// link drawn as a QR code (the library's `QRCodeImage`: EC level M, 4-module quiet
/// zone), black on white in both styles so every authenticator app can scan it.
@MainActor
enum QRCodeView {
    /// A picture about `targetSize` pixels wide, each module a whole number of pixels (crisp edges), or nil.
    static func make(text: String, targetSize: Int = 200) -> UnsafeMutablePointer<GtkWidget>? {
        guard let modules = try? QRCodeImage(encoding: text, scale: 1).width,
            let image = try? QRCodeImage(encoding: text, scale: max(2, targetSize / modules))
        else { return nil }
        let png = image.pngData()
        let bytes = png.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let texture = gdk_texture_new_from_bytes(bytes, nil) else { return nil }
        let picture = gtk_picture_new_for_paintable(texture)!
        g_object_unref(UnsafeMutableRawPointer(texture))
        gtk_widget_set_size_request(picture, Int32(image.width), Int32(image.height))
        gtk_picture_set_can_shrink(picture.cast(), 0)
        gtk_widget_set_halign(picture, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(picture, "qr-frame")
        gtk_widget_set_overflow(picture, GTK_OVERFLOW_HIDDEN)
        portal_ui_set_accessible_label(picture, tr("QR code for your authenticator app"))
        return picture
    }
}
