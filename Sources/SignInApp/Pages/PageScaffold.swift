import CSignInUI

/// The structure every page's layout file shares (`data/ui/*-page.ui`): a scrollable, width-clamped
/// column with an icon, a title and a description on top, then the page's own controls. The files
/// name the parts the pages change alike: `page` (the root), `title` and `description`. Their labels
/// wrap at any character, so a long word (an address, a translation) never widens the window, and
/// each button has a label child with a mnemonic: GTK 4.8 leaves a button named only by its `label`
/// property unnamed for assistive technology.
@MainActor
struct PageScaffold {
    /// Keeps the page's widgets alive once its layout has gone; the stack holds it too once shown.
    private let page: Widget
    let title: Label
    let description: Label

    init(_ layout: UILayout) {
        page = Widget(layout.widget("page"))
        title = Label(layout.widget("title"))
        description = Label(layout.widget("description"))
    }

    var root: UnsafeMutablePointer<GtkWidget> { page.widget }
}

/// A page of the main window's stack: its root widget goes into the stack.
@MainActor
protocol StackPage: AnyObject {
    var root: UnsafeMutablePointer<GtkWidget> { get }
}
