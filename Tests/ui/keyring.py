"""The private session's login keyring as a person would handle it in Passwords and Keys: locked,
unlocked, its unlock prompt dismissed (by gnome-keyring's prompter stand-in), or no Secret Service
at all (the app on a session bus that has none). The Swift suites' LoginKeyring and FakePrompter
do the same; the password is the one script/with-desktop-session created the keyring with."""
import contextlib
import os
import subprocess
from pathlib import Path

from gi.repository import Gio, GLib

COLLECTION = "/org/freedesktop/secrets/collection/login"
PASSWORD = "portal-test-keyring"
FAKE_PROMPTER = Path(__file__).resolve().parents[1] / "GNOMETests" / "Support" / "fake-prompter.py"


def _call(bus, path, interface, method, parameters, reply_type=None):
    return bus.call_sync("org.freedesktop.secrets", path, interface, method, parameters,
                         reply_type, Gio.DBusCallFlags.NONE, 10_000, None)


def is_locked():
    """The collection's Locked property; a D-Bus failure raises (it is neither answer)."""
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    reply = _call(bus, COLLECTION, "org.freedesktop.DBus.Properties", "Get",
                  GLib.Variant("(ss)", ("org.freedesktop.Secret.Collection", "Locked")))
    return reply.unpack()[0]


def lock():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    _call(bus, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "Lock", GLib.Variant("(ao)", ([COLLECTION],)))
    assert is_locked(), "the login keyring did not lock"


def unlock():
    # One connection for both calls: the plain session lives as long as the connection.
    bus = Gio.DBusConnection.new_for_address_sync(
        Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None),
        Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    try:
        opened = _call(bus, "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "OpenSession",
                       GLib.Variant("(sv)", ("plain", GLib.Variant("s", ""))))
        session = opened.unpack()[1]
        secret = GLib.Variant("(oayays)", (session, b"", PASSWORD.encode(), "text/plain"))
        _call(bus, "/org/freedesktop/secrets", "org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface",
              "UnlockWithMasterPassword", GLib.Variant.new_tuple(GLib.Variant("o", COLLECTION), secret))
    finally:
        bus.close_sync(None)
    assert not is_locked(), "the login keyring stayed locked"


@contextlib.contextmanager
def locked(folder, answer):
    """The login keyring locked for the block, its unlock prompt answered by the person: "dismiss"
    (Cancel) or "accept" (the right password). Yields a function returning the prompts the daemon
    asked for. The stand-in owns the prompter's bus name before the keyring locks, so the real
    gcr-prompter (a dialog nobody would answer on the test display) is never started. Unlocked and
    stopped afterwards, whatever happened."""
    log, password = Path(folder) / "prompter.log", Path(folder) / "prompter.password"
    errors = Path(folder) / "prompter.err"
    log.write_text("")
    password.write_text(PASSWORD)
    password.chmod(0o600)
    with open(errors, "w") as stderr:
        prompter = subprocess.Popen(["/usr/bin/python3", str(FAKE_PROMPTER), answer, str(password), str(log)],
                                    stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        first = prompter.stdout.readline().strip()
        assert first == "ready", f"the fake prompter did not take the prompter's bus name: {first!r} {errors.read_text()[-2000:]}"
        lock()
        try:
            yield lambda: log.read_text().split()
        finally:
            if is_locked():
                unlock()
    finally:
        prompter.terminate()
        prompter.wait(timeout=10)
        password.unlink(missing_ok=True)


def without_secret_service(folder):
    """A wrapper command that runs a program on a session bus of its own with no Secret Service
    (it can start no services), still reaching the desktop's accessibility bus. The bus's socket
    goes under $XDG_RUNTIME_DIR: a socket path must be short."""
    sockets = os.environ["XDG_RUNTIME_DIR"]
    config = Path(folder) / "bare-session.conf"
    config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir={sockets}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
""")
    accessibility = subprocess.run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                                    "--method", "org.a11y.Bus.GetAddress"], capture_output=True, text=True, check=True)
    address = accessibility.stdout.strip().strip("(),").strip("'")
    return ["env", f"AT_SPI_BUS_ADDRESS={address}", "dbus-run-session", f"--config-file={config}", "--"]
