import CGLibSupport
import GLibSupport
import Testing

// Signals of GIO kinds the tests emit on real objects (the layers declare theirs the same way).
extension SignalName {
    /// GListModel's: position, removed, added.
    static let itemsChanged = SignalName("items-changed")
    /// GDBusAuthObserver's: whether a peer may connect; the handler's answer is the emitter's result.
    static let authorizeAuthenticatedPeer = SignalName("authorize-authenticated-peer")
}

/// Typed signal names connect to real GObjects, and the handler runs, reads the emission's
/// arguments, answers a boolean signal, and stops with `disconnect` or with the object.
struct SignalConnectionTests {
    @Test func aConnectedHandlerRunsOnEachEmissionUntilDisconnected() {
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(cancellable) }
        let counter = Counter()
        let connection = SignalConnection(instance: UnsafeMutableRawPointer(cancellable), signal: .cancelled) { _ in
            counter.count += 1
            return false
        }
        g_cancellable_cancel(cancellable)
        #expect(counter.count == 1)
        g_cancellable_reset(cancellable)
        g_cancellable_cancel(cancellable)
        #expect(counter.count == 2)

        connection.disconnect()
        connection.disconnect() // idempotent
        g_cancellable_reset(cancellable)
        g_cancellable_cancel(cancellable)
        #expect(counter.count == 2, "a disconnected handler does not run")
    }

    @Test func aPropertyNotificationIsNamedByItsProperty() {
        #expect(SignalName.notify(.enabled).name == "notify::enabled")
        let action = g_simple_action_new("sign-out", nil)!
        defer { g_object_unref(UnsafeMutableRawPointer(action)) }
        let counter = Counter()
        _ = SignalConnection(instance: UnsafeMutableRawPointer(action), signal: .notify(.enabled)) { _ in
            counter.count += 1
            return false
        }
        g_simple_action_set_enabled(action, 0)
        #expect(counter.count == 1)
    }

    @Test func theHandlerReadsTheEmissionsArguments() {
        let store = g_list_store_new(g_simple_action_get_type())!
        defer { g_object_unref(UnsafeMutableRawPointer(store)) }
        let seen = Recorder<[UInt32]>()
        _ = SignalConnection(instance: UnsafeMutableRawPointer(store), signal: .itemsChanged) { arguments in
            seen.values.append([arguments.uint(0), arguments.uint(1), arguments.uint(2), arguments.uint(3)])
            return false
        }
        for name in ["first", "second"] {
            let action = g_simple_action_new(name, nil)!
            g_list_store_append(store, UnsafeMutableRawPointer(action))
            g_object_unref(UnsafeMutableRawPointer(action))
        }
        // position, removed, added; an argument the signal does not have reads as 0
        #expect(seen.values == [[0, 0, 1, 0], [1, 0, 1, 0]])
    }

    @Test func theHandlersAnswerIsTheSignalsResult() throws {
        let observer = g_dbus_auth_observer_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(observer)) }
        let peer = MemoryStream()
        #expect(g_dbus_auth_observer_authorize_authenticated_peer(observer, peer.stream, nil) != 0, "GIO's default is to allow")

        let streams = Recorder<UnsafeMutableRawPointer?>()
        _ = SignalConnection(instance: UnsafeMutableRawPointer(observer), signal: .authorizeAuthenticatedPeer) { arguments in
            streams.values.append(arguments.pointer(0))
            return false
        }
        #expect(g_dbus_auth_observer_authorize_authenticated_peer(observer, peer.stream, nil) == 0)
        #expect(streams.values == [UnsafeMutableRawPointer(peer.stream)], "the first argument is the stream, the emitter not among them")
    }

    @Test func theHandlerIsReleasedWithItsObject() {
        let cancellable = g_cancellable_new()!
        weak var released: Counter?
        var connection: SignalConnection?
        do {
            let counter = Counter()
            released = counter
            connection = SignalConnection(instance: UnsafeMutableRawPointer(cancellable), signal: .cancelled) { _ in
                counter.count += 1
                return false
            }
        }
        #expect(released != nil, "GLib holds the handler while the object lives")
        g_object_unref(cancellable)
        #expect(released == nil, "finalizing the object releases the handler and what it captured")
        connection?.disconnect() // safe after the object is gone
    }

    @Test func anUnknownTypedNameIsRefusedAtConnection() async {
        await #expect(processExitsWith: .failure) {
            let cancellable = g_cancellable_new()!
            _ = SignalConnection(instance: UnsafeMutableRawPointer(cancellable), signal: SignalName("canceled")) { _ in false }
        }
    }
}
