import CSignInUI
import SignInFlow

/// A boxed list of facts, each a small heading above its value (so a long value wraps under it
/// instead of pushing the window wider); an address row adds a copy button, an action row a button.
@MainActor
final class FactList {
    let root: UnsafeMutablePointer<GtkWidget>
    private var rows: [UnsafeMutablePointer<GtkWidget>] = []
    /// The buttons of the rows shown, kept alive with them.
    private var buttons: [Button] = []

    /// Fills `list`, a boxed GtkListBox of a layout file.
    init(_ list: UnsafeMutablePointer<GtkWidget>) {
        root = list
    }

    var isEmpty: Bool { rows.isEmpty }

    var isVisible: Bool {
        get { gtk_widget_get_visible(root) != 0 }
        set { gtk_widget_set_visible(root, newValue ? 1 : 0) }
    }

    func clear() {
        for row in rows { gtk_list_box_remove(root.cast(), row) }
        rows = []
        buttons = []
    }

    func replace(with facts: [(heading: String, value: String)]) {
        clear()
        for fact in facts { add(Self.fact(fact.heading, fact.value)) }
    }

    /// A wallet address, shortened in the middle (the whole one in its tooltip and description),
    /// with a button that copies the whole address.
    func appendAddress(heading: String, wallet: WalletAddress, copyLabel: String, onCopy: @escaping @MainActor () -> Void) {
        let text = Self.fact(heading, wallet.shortened, monospace: true)
        gtk_widget_set_hexpand(text, 1)
        gtk_widget_set_tooltip_text(text, wallet.address)
        let copy = Button(child: makeIcon("edit-copy-symbolic", size: 16), accessibleLabel: copyLabel, classes: ["flat"], onClick: onCopy)
        copy.setAccessibleDescription(wallet.address)
        gtk_widget_set_valign(copy.widget, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(copy.widget, copyLabel)
        buttons.append(copy)
        add(makeBox(GTK_ORIENTATION_HORIZONTAL, spacing: 6, children: [text, copy.widget]))
    }

    /// A row with one button (Try Again under a failure).
    func appendAction(_ title: String, onClick: @escaping @MainActor () -> Void) {
        let button = Button(title, classes: ["pill"], onClick: onClick)
        gtk_widget_set_halign(button.widget, GTK_ALIGN_CENTER)
        buttons.append(button)
        add(button.widget)
    }

    private func add(_ content: UnsafeMutablePointer<GtkWidget>) {
        setMargins(content, 4)
        gtk_list_box_append(root.cast(), content)
        // The list box wraps the content in a row: remember that row to remove it later.
        if let row = gtk_widget_get_parent(content) { rows.append(row) }
    }

    private static func fact(_ heading: String, _ value: String, monospace: Bool = false) -> UnsafeMutablePointer<GtkWidget> {
        let name = makeLabel(heading, classes: ["caption-heading", "dim-label"])
        gtk_label_set_xalign(name.cast(), 0)
        gtk_label_set_justify(name.cast(), GTK_JUSTIFY_LEFT)
        gtk_widget_set_halign(name, GTK_ALIGN_START)
        let valueLabel = makeLabel(value, classes: monospace ? ["account-value"] : [])
        gtk_label_set_selectable(valueLabel.cast(), 1)
        gtk_label_set_wrap_mode(valueLabel.cast(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_xalign(valueLabel.cast(), 0)
        gtk_label_set_justify(valueLabel.cast(), GTK_JUSTIFY_LEFT)
        gtk_widget_set_halign(valueLabel, GTK_ALIGN_START)
        return makeBox(GTK_ORIENTATION_VERTICAL, spacing: 4, children: [name, valueLabel])
    }
}
