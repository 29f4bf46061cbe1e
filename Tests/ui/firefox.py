#!/usr/bin/python3
"""A real Firefox ESR for the UI tests, driven over Marionette (marionette-driver from PyPI; there is
no geckodriver): headless, one profile per test module, and the session's http/https handler.

Firefox started by the harness cannot be reached by a second `firefox-esr URL` in headless mode (its
remote service is off there), so the desktop file registered as the browser runs this file's
`hand-over` command, which puts the URL in the profile's inbox; the harness opens it in Firefox's tab —
what `firefox-esr URL` does on a desktop, handing the URL to the running Firefox. Everything after that
is Firefox's own: the provider pages, the redirects, the custom-scheme redirect handed to GIO, and so
to the app by D-Bus activation, and its "open link" dialog.

    firefox.py hand-over INBOX URL    (the desktop file's Exec line)
"""
import json
import os
import subprocess
import sys
from pathlib import Path

from waiting import wait_until

HANDLER_PREF = "network.protocol-handler.external.io.github.portalauth.signin"
# Only what a harness needs: Marionette on a free port, and no first-run pages, updates or
# telemetry pings (nothing leaves the machine). The protocol handler's prefs stay Firefox's defaults
# unless a test asks otherwise.
HARNESS_PREFS = {
    "marionette.port": 0,
    "browser.shell.checkDefaultBrowser": False,
    "browser.aboutwelcome.enabled": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "startup.homepage_welcome_url": "about:blank",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.safebrowsing.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    # No xdg-desktop-portal: on the test bus it would start the document portal, whose FUSE mount in
    # the session's runtime dir outlives the bus. Outside Flatpak Firefox asks GIO for handlers anyway.
    "widget.use-xdg-desktop-portal.settings": 0,
    "widget.use-xdg-desktop-portal.file-picker": 0,
    "widget.use-xdg-desktop-portal.mime-handler": 0,
    "widget.use-xdg-desktop-portal.open-uri": 0,
    "widget.use-xdg-desktop-portal.location": 0,
    "widget.use-xdg-desktop-portal.native-messaging": 0,
}


def hand_over(inbox, url):
    """The browser's desktop-file command: one URL, appended to the inbox (0600: it holds a
    sign-in's state, never a grant — the grant only ever goes from Firefox to the app)."""
    fd = os.open(inbox, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a") as out:
        out.write(json.dumps({"url": url}) + "\n")


class Firefox:
    """One headless Firefox ESR with its own profile, under Marionette."""

    def __init__(self, profile, env, log, preferences=None):
        self.profile = Path(profile)
        self.env = env
        self.log = log
        self.preferences = dict(HARNESS_PREFS, **(preferences or {}))
        self.inbox = self.profile / "inbox.jsonl"
        self.process = None
        self.client = None
        self.taken = 0

    def start(self):
        from marionette_driver.marionette import Marionette
        self.profile.mkdir(parents=True, exist_ok=True)
        (self.profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n" for name, value in self.preferences.items()))
        port_file = self.profile / "MarionetteActivePort"
        port_file.unlink(missing_ok=True)
        # -remote-allow-system-access: Firefox 153 lets Marionette into the chrome context (where the
        # "open link" dialog lives) only with it.
        self.process = subprocess.Popen(["firefox-esr", "--marionette", "--no-remote", "--headless",
                                         "-remote-allow-system-access", "--profile", str(self.profile)],
                                        env=self.env, stdin=subprocess.DEVNULL, stdout=open(self.log, "w"),
                                        stderr=subprocess.STDOUT)
        wait_until(lambda: port_file.exists() and port_file.read_text().strip(), timeout=90,
                   what="Firefox's Marionette port")
        self.client = Marionette(host="127.0.0.1", port=int(port_file.read_text()), startup_timeout=90)
        self.client.start_session()
        # A navigation that ends on a custom-scheme redirect never finishes loading.
        self.client.timeout.page_load = 10
        return self

    def desktop_entry(self):
        """The desktop file that makes this Firefox the http/https handler."""
        return ("[Desktop Entry]\nType=Application\nName=Firefox ESR (test)\n"
                f"Exec=/usr/bin/python3 {Path(__file__).resolve()} hand-over {self.inbox} %u\nTerminal=false\n"
                "MimeType=x-scheme-handler/http;x-scheme-handler/https;text/html;\n")

    def next_url(self, timeout=60):
        """The next URL the desktop handed to the browser."""
        def read():
            lines = self.inbox.read_text().splitlines() if self.inbox.exists() else []
            return lines[self.taken:]
        pending = wait_until(read, timeout=timeout, what="the app to open a page in the browser")
        self.taken += 1
        return json.loads(pending[0])["url"]

    def open(self, url):
        self.client.set_context(self.client.CONTEXT_CONTENT)
        try:
            self.client.navigate(url)
        except Exception:  # a page that redirects to the app's scheme never "loads"
            pass

    def path(self):
        from urllib.parse import urlsplit
        self.client.set_context(self.client.CONTEXT_CONTENT)
        return urlsplit(self.client.get_url()).path

    def choose_account(self, email, action="continue"):
        """On the emulator's provider page: types the account as a person would and presses Continue."""
        self.client.set_context(self.client.CONTEXT_CONTENT)
        wait_until(lambda: self.client.execute_script("return !!document.querySelector('form button[value=continue]')"),
                   timeout=30, what="the provider's sign-in page")
        self.client.execute_script("""
            const [email, action] = arguments;
            document.getElementById('custom_email').value = email;
            document.querySelector(`form button[value=${action}]`).click();
        """, script_args=[email, action])

    def open_link_dialog(self):
        """The label and state of the "open link" dialog's accept button, or None when none is shown."""
        self.client.set_context(self.client.CONTEXT_CHROME)
        return self.client.execute_script("""
            for (const win of Services.wm.getEnumerator(null)) {
                for (const frame of win.document.querySelectorAll('browser.dialogFrame, iframe.dialogFrame')) {
                    const doc = frame.contentDocument;
                    const dialog = doc && doc.querySelector('dialog');
                    if (!dialog || !doc.documentURI.includes('permissionDialog')) continue;
                    if (!dialog._buttons) return {text: '', description: '', button: '', enabled: false};   // still loading
                    const accept = dialog.getButton('accept');
                    return {text: doc.documentElement.textContent.replace(/\\s+/g, ' ').trim(),
                            description: (doc.getElementById('description') || {}).textContent || '',
                            button: accept.label, enabled: !accept.disabled};
                }
            }
            return null;
        """)

    def accept_open_link_dialog(self, timeout=30):
        """Clicks the dialog's Open Link once Firefox enables it (it holds the button off for a moment
        so that a click meant for the page cannot accept it)."""
        shown = wait_until(lambda: (lambda d: d if d and d["enabled"] else None)(self.open_link_dialog()),
                           timeout=timeout, what="Firefox's open-link dialog with its button enabled")
        self.client.set_context(self.client.CONTEXT_CHROME)
        self.client.execute_script("""
            for (const win of Services.wm.getEnumerator(null)) {
                for (const frame of win.document.querySelectorAll('browser.dialogFrame, iframe.dialogFrame')) {
                    const doc = frame.contentDocument;
                    const dialog = doc && doc.querySelector('dialog');
                    if (!dialog || !doc.documentURI.includes('permissionDialog')) continue;
                    dialog.getButton('accept').click();
                    return true;
                }
            }
            return false;
        """)
        return shown

    def stop(self):
        """Ends Firefox, and the document portal it got D-Bus to start at its start-up (Firefox asks
        org.freedesktop.portal.Desktop before it reads its prefs): its FUSE mount in the session's
        runtime dir would keep the session from removing that dir."""
        try:
            if self.client is not None:
                self.client.delete_session()
        except Exception:
            pass
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        documents = Path(os.environ.get("XDG_RUNTIME_DIR", "/nonexistent")) / "doc"
        if any(line.split()[1] == str(documents) for line in Path("/proc/mounts").read_text().splitlines()):
            subprocess.run(["fusermount3", "-u", "-z", str(documents)], check=False, capture_output=True)


if __name__ == "__main__" and sys.argv[1:2] == ["hand-over"]:
    hand_over(sys.argv[2], sys.argv[3])
