#!/usr/bin/python3
"""Drives one running portal-sign-in for script/bench and script/soak, inside the private desktop
session of script/with-desktop-session (its D-Bus session bus, keyring, Xvfb and AT-SPI bus).

    appdriver.py setup-browser WORKDIR            make WORKDIR/browser the http(s) handler (it only records URLs)
    appdriver.py mint BASE_URL                    print a redirect URI with a fresh, unspent grant
    appdriver.py redirect-time BASE_URL PID N     N sign-ins: print "redirect delivered -> session in keyring" ms each
    appdriver.py cycles BASE_URL PID N [--via MODE] [--unsolicited] [--rss FILE]
                                                  N sign-in/sign-out cycles (the soak)
    appdriver.py wait-in-browser PID              click "Continue with Google"; return once the app waits for the browser
    appdriver.py cancel PID                       click "Cancel" on that page; return once back on Sign in
    appdriver.py sign-in BASE_URL PID             one sign-in as above; return on the Signed-in page
    appdriver.py sign-out PID                     "Sign Out…", then the dialog's "Sign Out"; return on the Sign-in page

A sign-in is a real one, as a person makes it: click "Continue with Google" (through AT-SPI), the
app opens the authorize URL in the "browser" (a script that hands the URL to us through a FIFO),
we play the person on the emulator's fake Google page with plain HTTP to get the redirect with its
grant, and deliver the redirect to the running app over D-Bus (org.freedesktop.Application.Open,
what a second `portal-sign-in URI` or `gio open URI` sends). Sign-out is "Sign Out…" and the dialog's "Sign Out".
`--unsolicited` skips the click, delivering a redirect the app did not ask for (a grant minted
from the API's own authorize URL): the app shows "Finish Signing In?", the driver clicks "Continue"
there, and the cycle goes on from the Signed-in page.

`cycles … --rss FILE` appends the app's RSS (kB, from /proc/PID/status) to FILE after each cycle,
once the Sign-in page is back and the app has rested (AT_REST_SECONDS: the app hands freed memory
back a second after a page switch), for script/soak's growth check.

Only the interval from the D-Bus call to the keyring's ItemCreated signal is timed; everything
else (AT-SPI, HTTP to the fake Google page) happens before the clock starts.
"""
import http.client
import os
import select
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "ui"))
import desktop  # noqa: E402  (the UI tests' AT-SPI helpers)
import fake_browser  # noqa: E402  (the UI tests' driver of the emulator's provider pages)

REDIRECT_URL = "io.github.portalauth.signin://auth/callback"
APP_BUS_NAME = "io.github.portalauth.SignIn"
APP_OBJECT_PATH = "/io/github/portalauth/SignIn"
SESSION_SCHEMA = "io.github.portalauth.Session"
FIFO_NAME = "browser-urls.fifo"
CONFIRM_TITLE = "Finish Signing In?"
# The app gives freed memory back 1 s after its last page switch (RestingMemoryRelease): an RSS
# sample taken earlier holds the transition's freed buffers too.
AT_REST_SECONDS = 1.5


def wait_until(condition, timeout=30.0, what="condition"):
    """Polls the AT-SPI tree (never inside a timed interval): a short interval keeps soaks quick."""
    return desktop.wait_until(condition, timeout=timeout, interval=0.02, what=what)


# -- the "browser" --------------------------------------------------------------------------------

def setup_browser(workdir):
    """A do-nothing browser as the default http/https handler: it writes the URL it was given into a
    FIFO, so the driver learns of it the moment the app opens it, then exits."""
    workdir = Path(workdir).resolve()
    fifo = workdir / FIFO_NAME
    if not fifo.exists():
        os.mkfifo(fifo, 0o600)
    script = workdir / "browser"
    script.write_text(f"#!/bin/sh\n# Records the URL the app opened; the bench driver reads it.\nprintf '%s\\n' \"$1\" > '{fifo}'\n")
    script.chmod(0o755)
    applications = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local/share")) / "applications"
    applications.mkdir(parents=True, exist_ok=True)
    (applications / "bench-browser.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=Bench Browser\nNoDisplay=true\n"
        f"Exec={script} %u\nTerminal=false\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n")
    subprocess.run(["update-desktop-database", str(applications)], check=True)
    for scheme in ("http", "https"):
        subprocess.run(["xdg-mime", "default", "bench-browser.desktop", f"x-scheme-handler/{scheme}"], check=True)


class BrowserFifo:
    """The read end of the browser's FIFO, opened read-write so it never sees end-of-file."""

    def __init__(self, workdir):
        self.fd = os.open(Path(workdir) / FIFO_NAME, os.O_RDWR | os.O_NONBLOCK)
        self.pending = b""

    def next_url(self, timeout=30.0):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                raise AssertionError("the app did not open the sign-in page in the browser")
            self.pending += os.read(self.fd, 65536)
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode()


# -- the fake Google page, driven over plain HTTP --------------------------------------------------

def _request(base_url, method, path_and_query, body=None):
    parts = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=15)
    headers = {"x-portal-auth-environment-id": "local-dev", "Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path_and_query, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, response.getheader("Location"), data


def authorize_url(base_url):
    """A Google authorize URL of the API's own, as `portal-auth login-url google` would get it."""
    import json
    query = urllib.parse.urlencode({"redirectUrl": REDIRECT_URL}, quote_via=urllib.parse.quote, safe="")
    status, _, data = _request(base_url, "GET", f"/api/v3/auth/oauth/urls?{query}")
    assert status == 200, f"GET /api/v3/auth/oauth/urls answered {status}"
    return json.loads(data)["data"]["google"]


def mint_redirect(base_url, authorize=None):
    """Plays the person on the emulator's Google page (alice@example.com, no two-factor step), with the
    UI tests' page driver (Tests/ui/fake_browser.py), and returns the app's redirect URI carrying a
    fresh grant."""
    authorize = authorize or authorize_url(base_url)
    ended, redirect, status, _ = fake_browser.walk(authorize, {"email": "alice@example.com", "action": "continue"})
    assert ended == "app" and redirect.startswith(REDIRECT_URL), f"the fake Google page ended {ended} ({status})"
    assert "token=" in redirect, "the redirect carries no grant"
    return redirect


# -- D-Bus: deliver a redirect, see the session land in the keyring --------------------------------

class Keyring:
    """Watches the Secret Service for items being created or changed, on the session bus."""

    def __init__(self):
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.events = []
        for member in ("ItemCreated", "ItemChanged"):
            self.bus.signal_subscribe(None, "org.freedesktop.Secret.Collection", member, None, None,
                                      Gio.DBusSignalFlags.NONE, self._on_item, None)

    def _on_item(self, _bus, _sender, _path, _interface, member, parameters, _data):
        self.events.append((time.monotonic(), member, parameters.unpack()[0]))

    def schema_of(self, item_path):
        reply = self.bus.call_sync("org.freedesktop.secrets", item_path, "org.freedesktop.DBus.Properties", "Get",
                                   GLib.Variant("(ss)", ("org.freedesktop.Secret.Item", "Attributes")),
                                   None, Gio.DBusCallFlags.NONE, 5000, None)
        return reply.unpack()[0].get("xdg:schema")

    def deliver(self, uri, timeout=15.0):
        """Sends `uri` to the running app over D-Bus and returns the milliseconds until the keyring
        announces the session item: the clock runs from just before the call to the signal's arrival."""
        self.events.clear()
        context = GLib.MainContext.default()
        replied = []
        start = time.monotonic()
        self.bus.call(APP_BUS_NAME, APP_OBJECT_PATH, "org.freedesktop.Application", "Open",
                      GLib.Variant("(asa{sv})", ([uri], {})), None, Gio.DBusCallFlags.NONE, -1, None,
                      lambda bus, result: replied.append(bus.call_finish(result)))
        deadline = start + timeout
        while not self.events:
            if time.monotonic() > deadline:
                raise AssertionError("no session reached the keyring after the redirect")
            context.iteration(True)   # sleeps until the next D-Bus message: no polling
        at, _, item = self.events[0]
        while not replied:
            context.iteration(True)
        schema = self.schema_of(item)
        assert schema == SESSION_SCHEMA, f"the keyring item that appeared is not a Portal session ({schema})"
        return (at - start) * 1000.0


def deliver_by_dbus(bus, uri):
    """Hands `uri` to the running app over D-Bus and returns once it answered (nothing is awaited in
    the keyring: an unsolicited redirect is only exchanged after "Continue")."""
    bus.call_sync(APP_BUS_NAME, APP_OBJECT_PATH, "org.freedesktop.Application", "Open",
                  GLib.Variant("(asa{sv})", ([uri], {})), None, Gio.DBusCallFlags.NONE, 15000, None)


def deliver_by_launch(uri):
    """Delivers `uri` the way the desktop does: a second `portal-sign-in URI`, which forwards it to
    the running instance over D-Bus and exits."""
    subprocess.run([os.environ.get("PORTAL_SIGN_IN", "portal-sign-in"), uri], check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)


# -- the app's window, through AT-SPI ---------------------------------------------------------------

class App:
    def __init__(self, pid):
        self.pid = pid
        application = wait_until(lambda: desktop.find_application(pid), timeout=60,
                                 what="portal-sign-in on the accessibility bus")
        self.window = desktop.AppWindow(application)

    def button(self, name):
        node = self.window.find("push button", name=name)
        try:
            return node if node is not None and node.getState().contains(desktop.pyatspi.STATE_SENSITIVE) else None
        except Exception:
            return None

    def wait_for_button(self, name, timeout=30.0):
        return wait_until(lambda: self.button(name), timeout=timeout, what=f"the '{name}' button")

    def click(self, name):
        node = self.wait_for_button(name)
        action = node.queryAction()
        for index in range(action.nActions):
            if action.getName(index) == "click":
                action.doAction(index)
                return
        raise AssertionError(f"'{name}' cannot be clicked")

    def on_sign_in_page(self):
        self.wait_for_button("Continue with Google")

    def on_signed_in_page(self):
        self.wait_for_button("Sign Out…")

    def on_confirm_page(self):
        wait_until(lambda: self.window.has_text(CONFIRM_TITLE), what=f"the '{CONFIRM_TITLE}' page")


def rss_kb(pid):
    """The process's resident set right now, in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for process {pid}")


def sign_in(app, base_url, browser, keyring, via="dbus", unsolicited=False):
    """One sign-in from the Sign-in page; returns redirect→keyring ms for a solicited one via=dbus, else None."""
    app.on_sign_in_page()
    if unsolicited:
        # The whole confirmation path: the link arrives, "Finish Signing In?", Sign In, Signed in.
        redirect = mint_redirect(base_url)
        if via == "dbus":
            deliver_by_dbus(keyring.bus, redirect)
        else:
            deliver_by_launch(redirect)
        app.on_confirm_page()
        app.click("Sign In")
        app.on_signed_in_page()
        return None
    app.click("Continue with Google")
    redirect = mint_redirect(base_url, browser.next_url())
    app.wait_for_button("Cancel")   # the app waits for the browser now
    if via == "dbus":
        elapsed = keyring.deliver(redirect)
    else:
        deliver_by_launch(redirect)
        elapsed = None
    app.on_signed_in_page()
    return elapsed


def sign_out(app):
    app.click("Sign Out…")   # asks first: the dialog's Sign Out ends the session
    app.click("Sign Out")
    app.on_sign_in_page()


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    if command == "setup-browser":
        setup_browser(argv[2])
    elif command == "mint":
        print(mint_redirect(argv[2]))
    elif command == "wait-in-browser":
        app, browser = App(int(argv[2])), BrowserFifo(os.environ.get("BENCH_WORKDIR", "."))
        app.on_sign_in_page()
        app.click("Continue with Google")
        browser.next_url()
        app.wait_for_button("Cancel")
    elif command == "cancel":
        app = App(int(argv[2]))
        app.click("Cancel")
        app.on_sign_in_page()
    elif command == "sign-in":
        workdir = os.environ.get("BENCH_WORKDIR", ".")
        sign_in(App(int(argv[3])), argv[2], BrowserFifo(workdir), Keyring())
    elif command == "sign-out":
        sign_out(App(int(argv[2])))
    elif command in ("redirect-time", "cycles"):
        base_url, pid, count = argv[2], int(argv[3]), int(argv[4])
        via = argv[argv.index("--via") + 1] if "--via" in argv else "dbus"
        unsolicited = "--unsolicited" in argv
        workdir = os.environ.get("BENCH_WORKDIR", ".")
        rss_file = argv[argv.index("--rss") + 1] if "--rss" in argv else None
        app, browser, keyring = App(pid), BrowserFifo(workdir), Keyring()
        for cycle in range(count):
            elapsed = sign_in(app, base_url, browser, keyring, via=via, unsolicited=unsolicited)
            if command == "redirect-time":
                print(f"{elapsed:.2f}", flush=True)
            sign_out(app)
            if rss_file:
                time.sleep(AT_REST_SECONDS)
                with open(rss_file, "a") as samples:
                    print(rss_kb(pid), file=samples)
            if command == "cycles" and (cycle + 1) % 10 == 0:
                print(f"  {cycle + 1} cycles", file=sys.stderr, flush=True)
    else:
        print(__doc__, file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
