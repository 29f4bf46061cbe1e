import CSignInUI

/// An otpauth:// link drawn as a QR code (libqrencode via the shim: EC level M, 4-module quiet zone),
/// black on white in both styles so every authenticator app can scan it.
@MainActor
enum QRCodeView {
    /// A picture about `targetSize` pixels wide, each module a whole number of pixels (crisp edges), or nil.
    static func make(text: String, targetSize: Int32 = 200) -> UnsafeMutablePointer<GtkWidget>? {
        let modules = portal_ui_qr_modules(text)
        guard modules > 0 else { return nil }
        let pixelsPerModule = max(2, targetSize / modules)
        guard let texture = portal_ui_qr_texture(text, pixelsPerModule) else { return nil }
        let picture = gtk_picture_new_for_paintable(texture)!
        g_object_unref(UnsafeMutableRawPointer(texture))
        let side = modules * pixelsPerModule
        gtk_widget_set_size_request(picture, side, side)
        gtk_picture_set_can_shrink(picture.cast(), 0)
        gtk_widget_set_halign(picture, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(picture, "qr-frame")
        gtk_widget_set_overflow(picture, GTK_OVERFLOW_HIDDEN)
        portal_ui_set_accessible_label(picture, tr("QR code for your authenticator app"))
        return picture
    }
}
