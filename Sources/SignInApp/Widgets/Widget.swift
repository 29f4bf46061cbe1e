import CSignInUI
import GLibSupport

/// A GtkWidget the Swift code keeps and talks to (signals, state). Widgets that are only placed in a
/// container and never touched again stay plain pointers owned by their parent.
@MainActor
class Widget: GObjectRef {
    let widget: UnsafeMutablePointer<GtkWidget>

    init(_ widget: UnsafeMutablePointer<GtkWidget>) {
        self.widget = widget
        super.init(adopting: widget.gpointer)
    }

    func addClass(_ name: String) { gtk_widget_add_css_class(widget, name) }
    func removeClass(_ name: String) { gtk_widget_remove_css_class(widget, name) }

    var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }
    var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    /// The name screen readers announce, where the visible text is not enough.
    func setAccessibleLabel(_ label: String) { portal_ui_set_accessible_label(widget, label) }
    func setAccessibleDescription(_ text: String) { portal_ui_set_accessible_description(widget, text) }

    func grabFocus() { _ = gtk_widget_grab_focus(widget) }
}

/// A GtkButton with a text label (or custom child) and a click handler.
@MainActor
final class Button: Widget {
    /// Changes the visible title (with a mnemonic underscore); the accessible name follows the label.
    func setTitle(_ title: String) {
        if let label = gtk_button_get_child(widget.cast()), portal_ui_is_a(label.gpointer, gtk_label_get_type()) != 0 {
            gtk_label_set_text_with_mnemonic(label.cast(), title)
        }
    }

    /// A button of a layout file (`UILayout`): its label, classes and accessible words are the file's.
    init(_ button: UnsafeMutablePointer<GtkWidget>, onClick: @escaping @MainActor () -> Void) {
        super.init(button)
        connect(.clicked, onClick)
    }

    init(_ title: String, classes: [String] = [], onClick: @escaping @MainActor () -> Void) {
        super.init(gtk_button_new())
        // The label child names the button for assistive technology (through its mnemonic widget);
        // an explicit accessible label on top makes GTK 4.8 read the name twice ("Cancel Cancel").
        let label = gtk_label_new_with_mnemonic(title)!
        gtk_label_set_mnemonic_widget(label.cast(), widget)
        // A long title (a translation, an email address) wraps instead of widening the window.
        gtk_label_set_wrap(label.cast(), 1)
        gtk_label_set_wrap_mode(label.cast(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_justify(label.cast(), GTK_JUSTIFY_CENTER)
        gtk_button_set_child(widget.cast(), label)
        for name in classes { addClass(name) }
        connect(.clicked, onClick)
    }

    init(
        child: UnsafeMutablePointer<GtkWidget>, accessibleLabel: String, classes: [String] = [],
        onClick: @escaping @MainActor () -> Void
    ) {
        super.init(gtk_button_new())
        gtk_button_set_child(widget.cast(), child)
        for name in classes { addClass(name) }
        setAccessibleLabel(accessibleLabel)
        connect(.clicked, onClick)
    }
}

/// A single-line GtkEntry of a layout file (`UILayout`), and what Enter in it does.
@MainActor
final class Entry: Widget {
    init(_ entry: UnsafeMutablePointer<GtkWidget>, onActivate: @escaping @MainActor () -> Void) {
        super.init(entry)
        connect(.activate, onActivate)
    }

    var text: String {
        get { String(cString: gtk_editable_get_text(widget.cast())) }
        set { gtk_editable_set_text(widget.cast(), newValue) }
    }

    /// Runs `handler` whenever the text changes (typing, paste, or `text = …`).
    func onChange(_ handler: @escaping @MainActor () -> Void) {
        connect(.changed, handler)
    }
}

/// A GtkLabel of a layout file (`UILayout`) whose text changes.
@MainActor
final class Label: Widget {
    var text: String {
        get { String(cString: gtk_label_get_text(widget.cast())) }
        set { gtk_label_set_text(widget.cast(), newValue) }
    }
}

// MARK: - Building blocks for widgets nobody touches again

@MainActor
func makeLabel(_ text: String, classes: [String] = [], wrap: Bool = true) -> UnsafeMutablePointer<GtkWidget> {
    let label = gtk_label_new(text)!
    if wrap {
        gtk_label_set_wrap(label.cast(), 1)
        // A word longer than the window (an email address, a link) breaks too.
        gtk_label_set_wrap_mode(label.cast(), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_justify(label.cast(), GTK_JUSTIFY_CENTER)
    }
    for name in classes { gtk_widget_add_css_class(label, name) }
    return label
}

@MainActor
func makeBox(
    _ orientation: GtkOrientation, spacing: Int32, classes: [String] = [],
    children: [UnsafeMutablePointer<GtkWidget>] = []
) -> UnsafeMutablePointer<GtkWidget> {
    let box = gtk_box_new(orientation, spacing)!
    for name in classes { gtk_widget_add_css_class(box, name) }
    for child in children { gtk_box_append(box.cast(), child) }
    return box
}

@MainActor
func setMargins(_ widget: UnsafeMutablePointer<GtkWidget>, _ margin: Int32) {
    gtk_widget_set_margin_top(widget, margin)
    gtk_widget_set_margin_bottom(widget, margin)
    gtk_widget_set_margin_start(widget, margin)
    gtk_widget_set_margin_end(widget, margin)
}

/// A themed icon at a given pixel size.
@MainActor
func makeIcon(_ name: String, size: Int32) -> UnsafeMutablePointer<GtkWidget> {
    let image = gtk_image_new_from_icon_name(name)!
    gtk_image_set_pixel_size(image.cast(), size)
    return image
}
