import CPortalUI

/// "Sign in": the Google and Apple buttons, and an email field for a magic link.
@MainActor
final class SignInPage {
    let root: UnsafeMutablePointer<GtkWidget>
    private var google: BrandButton!
    private var apple: BrandButton!
    private var email: Entry!
    private var sendLink: Button!

    var onProvider: (@MainActor (SignInProvider) -> Void)?
    var onMagicLink: (@MainActor (String) -> Void)?

    init() {
        let scaffold = PageScaffold(icon: PageScaffold.icon("system-users-symbolic"),
                                    title: tr("Sign in to Portal"),
                                    description: tr("Use your Google or Apple account, or get a sign-in link by email."))
        root = scaffold.root

        google = BrandButton(.google) { [weak self] in self?.onProvider?(.google) }
        apple = BrandButton(.apple) { [weak self] in self?.onProvider?(.apple) }
        let providers = makeBox(GTK_ORIENTATION_VERTICAL, spacing: 12,
                                children: [google.button.widget, apple.button.widget])
        gtk_box_set_homogeneous(providers.cast(), 1)

        let separator = makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 12, classes: ["or-separator"])
        let left = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!, right = gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!
        gtk_widget_set_hexpand(left, 1); gtk_widget_set_hexpand(right, 1)
        gtk_widget_set_valign(left, GTK_ALIGN_CENTER); gtk_widget_set_valign(right, GTK_ALIGN_CENTER)
        append(separator, left, makeLabel(tr("or"), classes: ["dim-label"], wrap: false), right)

        email = Entry(placeholder: tr("you@example.com"), accessibleLabel: tr("Email address")) { [weak self] in
            self?.submitEmail()
        }
        gtk_entry_set_input_purpose(email.widget.cast(), GTK_INPUT_PURPOSE_EMAIL)
        sendLink = Button(tr("Email me a sign-in link"), classes: ["pill"]) { [weak self] in self?.submitEmail() }
        email.onChange { [weak self] in self?.updateSendLink() }
        updateSendLink()

        append(scaffold.body, providers, separator, email.widget, sendLink.widget)
    }

    func apply(dark: Bool) {
        google.apply(dark: dark)
        apple.apply(dark: dark)
    }

    /// Disables the controls while a request runs, so a double click starts nothing twice.
    func setBusy(_ busy: Bool) {
        for widget in [google.button, apple.button, email!] as [Widget] { widget.isSensitive = !busy }
        sendLink.isSensitive = !busy && isPlausibleEmail(email.text)
    }

    func focusFirst() { google.button.grabFocus() }

    private func updateSendLink() { sendLink.isSensitive = isPlausibleEmail(email.text) }

    private func submitEmail() {
        let address = email.text.trimmingCharacters(in: .whitespaces)
        guard isPlausibleEmail(address) else { return }
        onMagicLink?(address)
    }

    private func isPlausibleEmail(_ text: String) -> Bool {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasSuffix(".")
    }
}
