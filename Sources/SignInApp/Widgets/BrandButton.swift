import CSignInUI
import SignInFlow

/// "Continue with Google / Apple / Discord / X", drawn by each brand's rules (the provider table's
/// `brandStyle`): the same size, shape, label pattern and focus ring for all; the colours are the
/// style class's rules in the stylesheet (style.css, style-dark.css). The mark is the table's icon
/// from the app's GResource: the Google G keeps its own colours; the Apple, X and Discord marks are
/// symbolic icons drawn in the button's text colour (Apple: logo and title the same colour; X: white
/// on black, reversed in the dark style; Discord: white on Blurple).
@MainActor
final class BrandButton {
    static let height: Int32 = 40
    static let width: Int32 = 280
    let button: Button

    init(_ provider: SignInProvider, onClick: @escaping @MainActor () -> Void) {
        let title = Self.title(provider)
        let logo = gtk_image_new_from_icon_name(provider.mark)!
        gtk_image_set_pixel_size(logo.cast(), 18)
        gtk_widget_add_css_class(logo, "brand-logo")
        let titleLabel = makeLabel(title, classes: ["brand-title"], wrap: false)
        let content = makeBox(
            GTK_ORIENTATION_HORIZONTAL, spacing: 10, classes: ["brand-content"],
            children: [logo, titleLabel])
        gtk_widget_set_halign(content, GTK_ALIGN_CENTER)
        button = Button(
            child: content, accessibleLabel: title,
            classes: ["brand-button", provider.brandStyle.styleClass], onClick: onClick)
        gtk_widget_set_size_request(button.widget, Self.width, Self.height)
    }

    /// Each brand's own wording in each language (Apple's German is "Mit Apple fortfahren").
    static func title(_ provider: SignInProvider) -> String {
        switch provider {
        case .google: return tr("Continue with Google")
        case .apple: return tr("Continue with Apple")
        case .discord: return tr("Continue with Discord")
        case .x: return tr("Continue with X")
        }
    }
}
