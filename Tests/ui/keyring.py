"""The private session's login keyring as a person would handle it in Passwords and Keys: locked,
unlocked, its unlock prompt dismissed (by gnome-keyring's prompter stand-in), or no Secret Service
at all (the app on a session bus that has none). The Swift suites' LoginKeyring and FakePrompter
do the same; the password is the one script/with-desktop-session created the keyring with."""
import contextlib
import os
import subprocess
import time
from pathlib import Path

from gi.repository import Gio, GLib

from waiting import wait_until

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


class BareBus:
    """A session bus of the test's own with no Secret Service, reaching the desktop's accessibility
    bus, on which a keyring can be started later (`start_keyring`), as a person installing and
    starting one would. Its gnome-keyring keeps its files under `folder`, apart from the session's."""

    def __init__(self, folder):
        self.folder = Path(folder)
        config = self.folder / "bare-bus.conf"
        config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir={os.environ["XDG_RUNTIME_DIR"]}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
""")
        self.daemon = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.address = self.daemon.stdout.readline().strip()
        assert self.address, "the bare bus did not start"
        accessibility = subprocess.run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                                        "--method", "org.a11y.Bus.GetAddress"], capture_output=True, text=True, check=True)
        self.accessibility = accessibility.stdout.strip().strip("(),").strip("'")
        self.keyring_pid = None
        self.starts = 0

    @property
    def wrapper(self):
        return ["env", f"DBUS_SESSION_BUS_ADDRESS={self.address}", f"AT_SPI_BUS_ADDRESS={self.accessibility}"]

    def env(self):
        home = self.folder / "keyring-home"
        # Each start its own runtime folder: a stopped daemon leaves its control socket behind.
        runtime = self.folder / f"keyring-runtime-{self.starts}"
        for folder in (home, runtime):
            folder.mkdir(exist_ok=True, mode=0o700)
        return dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address, HOME=str(home),
                    XDG_DATA_HOME=str(home / "data"), XDG_RUNTIME_DIR=str(runtime))

    def start_keyring(self):
        """gnome-keyring on this bus, with an unlocked login collection."""
        self.starts += 1
        env = self.env()
        subprocess.run(["gnome-keyring-daemon", "--unlock", "--components=secrets"], input=PASSWORD, text=True,
                       env=env, check=True, capture_output=True)
        subprocess.run(["gnome-keyring-daemon", "--start", "--components=secrets"], env=env, check=True, capture_output=True)
        def owned():
            answer = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                     "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
                                     "org.freedesktop.secrets"], env=env, capture_output=True, text=True)
            return "true" in answer.stdout
        # Up to half a minute: on a loaded machine (the UI suite's parts side by side, other builds) the
        # daemon can take longer than its usual moment to claim the name.
        wait_until(owned, timeout=30, interval=0.1, what="gnome-keyring to own org.freedesktop.secrets on the bare bus")
        owner = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                                "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                                "org.freedesktop.secrets"], env=env, capture_output=True, text=True, check=True)
        self.keyring_pid = int(owner.stdout.strip().strip("(),").split()[-1])

    def restart_keyring(self):
        """The keyring stops and starts again (a crash, an update, the person restarting it): the
        same login collection, a new process that knows none of the old one's sessions."""
        os.kill(self.keyring_pid, 15)
        for _ in range(100):
            try:
                os.kill(self.keyring_pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        old = self.keyring_pid
        self.start_keyring()
        assert self.keyring_pid != old, "the same keyring process still runs"

    def secret_tool(self, *arguments):
        return subprocess.run(["secret-tool", *arguments], env=self.env(), capture_output=True, text=True)

    def stop(self):
        if self.keyring_pid:
            try:
                os.kill(self.keyring_pid, 15)
            except ProcessLookupError:
                pass
        self.daemon.terminate()
        self.daemon.wait(timeout=10)
