import CSignInUI

// Pointer conversions between GObject types: the Swift side of the C cast macros.
// Most are upcasts to a parent struct, which C does with a plain pointer cast too; where the type
// is not known, `portal_ui_is_a` checks it first.

extension UnsafeMutablePointer {
    /// Reinterprets this GObject pointer as another GObject struct type (an upcast or a checked cast).
    func cast<Target>(to _: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: Target.self)
    }
    /// For the GTK types whose structs are private (GtkStack, GtkLabel…), which Swift sees as OpaquePointer.
    func cast() -> OpaquePointer { OpaquePointer(self) }
    var gpointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer {
    func cast<Target>(to _: Target.Type = Target.self) -> UnsafeMutablePointer<Target> {
        UnsafeMutablePointer<Target>(self)
    }
    var gpointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}
