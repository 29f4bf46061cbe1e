import CGLibSupport
import GLibSupport
import Testing

/// The wrapper owns one reference to its object, sinking a floating one, and ends its signal
/// connections before it lets the object go.
@MainActor
struct GObjectRefTests {
    @Test func theWrapperKeepsTheObjectAliveAndTheLastReferenceFinalizesIt() {
        let cancellable = g_cancellable_new()!
        let watch = ObjectWatch(UnsafeMutableRawPointer(cancellable))
        var wrapper: GObjectRef? = GObjectRef(adopting: UnsafeMutableRawPointer(cancellable))
        g_object_unref(cancellable) // the creator's reference; the wrapper's own remains
        #expect(watch.isAlive)
        _ = wrapper
        wrapper = nil
        #expect(!watch.isAlive)
    }

    @Test func aFloatingReferenceIsSunkIntoTheWrapper() {
        let object = g_object_new_with_properties(g_initially_unowned_get_type(), 0, nil, nil)!
        let watch = ObjectWatch(UnsafeMutableRawPointer(object))
        #expect(g_object_is_floating(object) != 0)
        var wrapper: GObjectRef? = GObjectRef(adopting: UnsafeMutableRawPointer(object))
        #expect(g_object_is_floating(object) == 0)
        #expect(watch.isAlive)
        _ = wrapper
        wrapper = nil
        #expect(!watch.isAlive, "the sunk reference was the only one")
    }

    @Test func handlersRunOnTheMainActorUntilTheWrapperGoes() {
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(cancellable) } // the test's reference outlives the wrapper
        var cancelled = 0
        var wrapper: GObjectRef? = GObjectRef(adopting: UnsafeMutableRawPointer(cancellable))
        wrapper?.connect(.cancelled) { cancelled += 1 }
        g_cancellable_cancel(cancellable)
        #expect(cancelled == 1)

        wrapper = nil
        g_cancellable_reset(cancellable)
        g_cancellable_cancel(cancellable)
        #expect(cancelled == 1, "the wrapper disconnected its handlers when it went")
    }

    @Test func aHandlersResultAnswersTheSignal() {
        let observer = g_dbus_auth_observer_new()!
        let peer = MemoryStream()
        let wrapper = GObjectRef(adopting: UnsafeMutableRawPointer(observer))
        g_object_unref(UnsafeMutableRawPointer(observer))
        wrapper.connect(.authorizeAuthenticatedPeer) { _ in false }
        #expect(g_dbus_auth_observer_authorize_authenticated_peer(observer, peer.stream, nil) == 0)
    }
}
