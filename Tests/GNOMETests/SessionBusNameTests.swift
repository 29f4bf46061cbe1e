import CAuthPlatform
import Foundation
import PortalAuthGNOME
import Testing

/// Who owns a name on the session bus, as the app asks at start-up before it forwards anything.
extension GNOMEIntegration {
    @Suite(.serialized) struct SessionBusNameTests {
        private static func uniqueName(_ role: String) -> String {
            "io.github.portalauth.Test.\(role)\(getpid())"
        }

        @Test func aNameNobodyOwnsHasNoOwner() {
            #expect(SessionBusName(Self.uniqueName("Nobody")).owner() == .nobody)
        }

        @Test func aNameThisProgramOwnsIsThisApp() throws {
            let name = Self.uniqueName("Own")
            let bus = try #require(g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil))
            defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
            #expect(Self.callBus(bus, "RequestName", name, flags: 4) == 1, "this process could not own \(name)")
            defer { _ = Self.callBus(bus, "ReleaseName", name, flags: nil) }
            #expect(SessionBusName(name).owner() == .thisApp)
        }

        @Test func aNameAnotherProgramOwnsIsNamedWithItsProcess() throws {
            let name = Self.uniqueName("Squatter")
            let squatter = Process()
            squatter.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            squatter.arguments = [
                "-c",
                """
                import sys
                from gi.repository import Gio, GLib
                bus = Gio.bus_get_sync(Gio.BusType.SESSION)
                bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                              GLib.Variant("(su)", (sys.argv[1], 4)), None, Gio.DBusCallFlags.NONE, -1, None)
                print("owned", flush=True)
                sys.stdin.read()
                """, name
            ]
            let output = Pipe()
            let input = Pipe()
            squatter.standardOutput = output
            squatter.standardInput = input
            try ChildSignals.launchUnblocked(squatter)
            defer {
                try? input.fileHandleForWriting.close()
                squatter.waitUntilExit()
            }
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            try #require(line.hasPrefix("owned"), "the squatter did not take \(name)")

            guard case .foreign(let description) = SessionBusName(name).owner() else {
                Issue.record("another program's name counts as this app's")
                return
            }
            #expect(description.hasPrefix("python3"))
            #expect(description.hasSuffix("process \(squatter.processIdentifier)"))
        }

        /// Calls the bus daemon's `method(name[, flags])`; its `u` answer, or nil on an error.
        private static func callBus(_ bus: OpaquePointer, _ method: String, _ name: String, flags: UInt32?) -> UInt32? {
            var children: [OpaquePointer?] = [g_variant_new_string(name)]
            if let flags { children.append(g_variant_new_uint32(flags)) }
            let parameters = g_variant_new_tuple(&children, gsize(children.count))
            guard
                let reply = g_dbus_connection_call_sync(
                    bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                    method, parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil)
            else { return nil }
            defer { g_variant_unref(reply) }
            guard let value = g_variant_get_child_value(reply, 0) else { return nil }
            defer { g_variant_unref(value) }
            return g_variant_get_uint32(value)
        }
    }
}
