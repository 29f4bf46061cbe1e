/// A C pointer handed from one thread to GLib's main context. GLib objects are used only on that
/// context; this box only carries the address across, which the compiler cannot see is safe.
public struct MainContextPointer<Pointee>: @unchecked Sendable {
    public let pointer: Pointee
    public init(_ pointer: Pointee) { self.pointer = pointer }
}
