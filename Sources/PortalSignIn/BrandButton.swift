import CPortalUI
import Foundation

/// "Continue with Google" / "Continue with Apple", drawn by the providers' rules
/// (linux-desktop-facts.md, Branding): the unaltered four-colour G on Google's light or dark theme;
/// the Apple logo and title in one colour, black on a light style and white on a dark one.
/// Both buttons have the same size; colours live in Style.swift's CSS, keyed on `.brand-dark`.
@MainActor
final class BrandButton {
    enum Brand { case google, apple }

    static let height: Int32 = 40
    let button: Button
    private let brand: Brand
    private let logo: UnsafeMutablePointer<GtkWidget>
    private let logoSize: Int32

    init(_ brand: Brand, onClick: @escaping @MainActor () -> Void) {
        self.brand = brand
        let title: String
        switch brand {
        case .google:
            title = tr("Continue with Google")
            logoSize = 18
        case .apple:
            title = tr("Continue with Apple")
            logoSize = 18
        }
        logo = gtk_image_new()!
        gtk_image_set_pixel_size(logo.cast(), logoSize)
        gtk_widget_add_css_class(logo, "brand-logo")
        let titleLabel = makeLabel(title, classes: ["brand-title"], wrap: false)
        let content = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 10, classes: ["brand-content"],
                              children: [logo, titleLabel])
        gtk_widget_set_halign(content, GTK_ALIGN_CENTER)
        button = Button(child: content, accessibleLabel: title,
                        classes: ["brand-button", brand == .google ? "brand-google" : "brand-apple"],
                        onClick: onClick)
        gtk_widget_set_size_request(button.widget, 280, BrandButton.height)
        apply(dark: false)
    }

    /// Switches to the dark-style rendering (Google dark theme; white Apple button with a black logo).
    func apply(dark: Bool) {
        if dark { button.addClass("brand-dark") } else { button.removeClass("brand-dark") }
        let file: String
        var colour: String? = nil
        switch brand {
        case .google: file = "google-g.svg"
        case .apple:
            file = "apple-logo.svg"
            colour = dark ? "#000000" : "#FFFFFF"   // the title's colour on that button
        }
        if let texture = BrandMark.texture(file: file, colour: colour, size: logoSize) {
            gtk_image_set_from_paintable(logo.cast(), OpaquePointer(texture))
            g_object_unref(texture)
        }
    }
}

/// Renders a brand mark SVG at the display's pixel density.
@MainActor
enum BrandMark {
    static func texture(file: String, colour: String?, size: Int32) -> UnsafeMutableRawPointer? {
        let url = AppPaths.branding.appendingPathComponent(file)
        guard var svg = try? String(contentsOf: url, encoding: .utf8) else {
            FileHandle.standardError.write(Data("portal-sign-in: missing brand mark \(url.path)\n".utf8))
            return nil
        }
        // The Apple mark is one path with no fill of its own: it inherits the root's fill.
        if let colour { svg = svg.replacingOccurrences(of: "<svg ", with: "<svg fill=\"\(colour)\" ") }
        let pixels = size * scaleFactor()
        let loader = gdk_pixbuf_loader_new_with_type("svg", nil)
        guard let loader else { return nil }
        defer { g_object_unref(loader) }
        gdk_pixbuf_loader_set_size(loader, pixels, pixels)
        let bytes = Array(svg.utf8)
        let wrote = bytes.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), nil) }
        guard wrote != 0, gdk_pixbuf_loader_close(loader, nil) != 0,
              let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        return UnsafeMutableRawPointer(gdk_texture_new_for_pixbuf(pixbuf))
    }

    private static func scaleFactor() -> Int32 {
        guard let display = gdk_display_get_default(),
              let monitors = gdk_display_get_monitors(display),
              g_list_model_get_n_items(monitors) > 0,
              let monitor = g_list_model_get_item(monitors, 0) else { return 1 }
        defer { g_object_unref(monitor) }
        return max(1, gdk_monitor_get_scale_factor(OpaquePointer(monitor)))
    }
}
