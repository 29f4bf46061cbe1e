import GLibSupport

// The signals and properties of the GTK and libadwaita kinds the app connects to
// (GApplication's are in GLibSupport).

extension SignalName {
    // GtkButton, GtkCheckButton, GtkToggleButton
    static let clicked = SignalName("clicked")
    static let toggled = SignalName("toggled")

    // GtkEditable (GtkEntry, AdwEntryRow); GtkEntry's Enter is `activate`. GSettings: a key changed.
    static let changed = SignalName("changed")

    // AdwEntryRow: its apply button, and Enter
    static let apply = SignalName("apply")
    static let entryActivated = SignalName("entry-activated")

    // GtkWindow: asked to close; a handler returning true keeps it open
    static let closeRequest = SignalName("close-request")

    // AdwMessageDialog: the response chosen (its id, a string)
    static let response = SignalName("response")

    // GtkEventControllerKey: keyval, keycode, modifier state; a handler returning true stops the key
    static let keyPressed = SignalName("key-pressed")

    // GdkFrameClock: a frame has been painted
    static let afterPaint = SignalName("after-paint")
}

extension PropertyName {
    // GtkWindow
    static let isActive = PropertyName("is-active")
    // GtkSwitch
    static let active = PropertyName("active")
    // GtkStack
    static let transitionRunning = PropertyName("transition-running")
}
