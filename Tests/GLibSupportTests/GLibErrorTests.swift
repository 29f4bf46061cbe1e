import CGLibSupport
import GLibSupport
import Testing

/// What the layers read out of a failed GLib call: its domain, code and message, and a D-Bus peer's
/// error name, taken once and with the C error freed.
struct GLibErrorTests {
    private let domain = g_quark_from_string("glib-support-tests")

    @Test func takesTheDomainCodeAndMessageAndEmptiesTheSlot() throws {
        var slot: UnsafeMutablePointer<GError>? = g_error_new_literal(domain, 7, "the certificate file is unreadable")
        let error = try #require(GLibError.take(&slot))
        #expect(slot == nil)
        #expect(error.domain == domain)
        #expect(error.code == 7)
        #expect(error.message == "the certificate file is unreadable")
        #expect("\(error)" == "the certificate file is unreadable")
        #expect(error.remoteName == nil)
        #expect(GLibError.take(&slot) == nil, "a slot is read once")
    }

    @Test func anEmptySlotIsNoError() {
        var slot: UnsafeMutablePointer<GError>?
        #expect(GLibError.take(&slot) == nil)
    }

    @Test func matchesOnlyItsOwnDomainAndCode() throws {
        var slot: UnsafeMutablePointer<GError>? = g_error_new_literal(
            g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue),
            "Operation was cancelled")
        let error = try #require(GLibError.take(&slot))
        #expect(error.matches(g_io_error_quark(), G_IO_ERROR_CANCELLED))
        #expect(error.matches(g_io_error_quark(), Int32(G_IO_ERROR_CANCELLED.rawValue)))
        #expect(!error.matches(g_io_error_quark(), G_IO_ERROR_TIMED_OUT))
        #expect(!error.matches(domain, G_IO_ERROR_CANCELLED), "the same number in another domain is another error")
        #expect(!error.matches(domain, Int32(G_IO_ERROR_CANCELLED.rawValue)))
    }

    @Test func aDBusPeersErrorKeepsItsName() throws {
        var slot: UnsafeMutablePointer<GError>? = g_dbus_error_new_for_dbus_error(
            "org.freedesktop.Secret.Error.IsLocked",
            "The collection is locked")
        let error = try #require(GLibError.take(&slot))
        // A name no library registered arrives in GIO's domain, as G_IO_ERROR_DBUS_ERROR.
        #expect(error.matches(g_io_error_quark(), G_IO_ERROR_DBUS_ERROR))
        #expect(error.remoteName == "org.freedesktop.Secret.Error.IsLocked")
        #expect(error.message.hasSuffix("The collection is locked"))
    }
}
