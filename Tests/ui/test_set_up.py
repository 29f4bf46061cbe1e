"""An app nobody configured: it opens on its set-up page and sends nothing anywhere, not even to the
emulator's well-known port, which any other user of the computer can take first. The emulator is
used only when chosen, and then the window says so."""
import socket
import subprocess
import time

import pyatspi
import pytest

from desktop import wait_until

SCHEMA = "io.github.portalauth.SignIn"
# What makes the harness's app configured: without them it is a fresh install.
CONFIGURATION = ("PORTAL_API_HOST", "PORTAL_AUTH_EMULATOR_HOST", "TURNKEY_AUTH_PROXY_URL")
SQUATTER = """
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", 8790))
except OSError as error:
    print("taken", error, flush=True)
    sys.exit(1)
s.listen(64)
print("listening", flush=True)
while True:
    c, _ = s.accept()
    c.settimeout(2)
    try:
        first = c.recv(5)
    except OSError:
        first = b""
    print("probe" if first == b"probe" else "connection", flush=True)
    c.close()
"""


class Squatter:
    """Another user (uid 65534) listening on 127.0.0.1:8790, counting the connections it accepts."""

    def __init__(self, log):
        self.log = log
        self.process = subprocess.Popen(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", SQUATTER],
            stdout=open(log, "w"), stdin=subprocess.DEVNULL)
        wait_until(lambda: self.lines(), timeout=10, what="the squatter to listen")
        assert self.lines()[0] == "listening", f"uid 65534 could not listen on 127.0.0.1:8790: {self.lines()}"

    def lines(self):
        return self.log.read_text().splitlines()

    def connections(self):
        """The connections others made so far. Our own probe goes last: the squatter takes
        connections in order, so once it reports the probe every earlier one is counted."""
        with socket.create_connection(("127.0.0.1", 8790), timeout=10) as probe:
            probe.sendall(b"probe")
            probe.recv(1)
        wait_until(lambda: "probe" in self.lines(), timeout=10, what="the squatter to report the probe")
        seen = self.lines()
        return seen[:len(seen) - seen[::-1].index("probe")].count("connection")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def squatter(test_logs):
    server = Squatter(test_logs / "squatter.log")
    yield server
    server.stop()


def gsettings(session, *arguments):
    return subprocess.run(["gsettings", *arguments], env=dict(session.env, GSETTINGS_BACKEND="keyfile"),
                          capture_output=True, text=True, check=True).stdout.strip()


def launch_unconfigured(session, **extra):
    return session.launch(unset=CONFIGURATION, GSETTINGS_BACKEND="keyfile", **extra)


@pytest.mark.parametrize("backend", ["portal", "turnkey"])
def test_an_unconfigured_app_opens_on_set_up_and_sends_nothing(session, emulator, squatter, backend):
    window = launch_unconfigured(session, PORTAL_SIGN_IN_BACKEND=backend)
    window.wait_for_text("Set Up Portal Sign-In")
    window.wait_for("text", name="Auth environment ID" if backend == "portal" else "Auth Proxy config ID")
    assert not window.has_text("Sign In to Portal") and not window.has_text("Sign In to Turnkey"), \
        "a sign-in that cannot work is offered"
    session.screenshot(f"set-up-{backend}")
    time.sleep(2)   # anything the app would send at start has been sent by now
    assert squatter.connections() == 0, "an unconfigured app connected to 127.0.0.1:8790"
    assert emulator.admin("requests") == [], "an unconfigured app reached the emulator"


def test_entering_an_id_applies_at_once(session, emulator, squatter):
    # A host configured (here the test emulator), but no auth environment ID: not set up.
    window = launch_unconfigured(session, PORTAL_API_HOST=emulator.host)
    window.wait_for_text("Set Up Portal Sign-In")
    continue_button = window.wait_for("push button", name="Continue")
    assert not continue_button.getState().contains(pyatspi.STATE_SENSITIVE), \
        "Continue is offered without an ID"
    window.type_into("Auth environment ID", "local-dev")
    window.click("Continue")
    window.wait_for_text("Sign In to Portal")
    assert gsettings(session, "get", SCHEMA, "auth-environment-id") == "'local-dev'"
    assert not window.has_text("Local test environment"), "the subtitle shows without the emulator chosen"
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    assert session.stored_session() is not None
    assert squatter.connections() == 0


def test_the_local_test_environment_choice_signs_in_on_the_emulator_and_says_so(session, emulator, squatter):
    # The test emulator's address, as a person who runs it elsewhere than 127.0.0.1:8790 sets it.
    gsettings(session, "set", SCHEMA, "emulator-host", emulator.host)
    window = launch_unconfigured(session)
    window.wait_for_text("Set Up Portal Sign-In")
    window.wait_for("check box", name="Local test environment").queryAction().doAction(0)
    window.wait_gone("text", name="Auth environment ID")
    window.click("Continue")
    window.wait_for_text("Sign In to Portal")
    assert gsettings(session, "get", SCHEMA, "local-test-environment") == "true"
    window.wait_for("label", name="Local test environment")   # the header bar's subtitle
    session.screenshot("local-test-environment")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    assert session.stored_session() is not None
    assert emulator.requests("POST", "/api/v3/auth/oauth/tokens"), "the sign-in did not reach the emulator"
    assert squatter.connections() == 0


def test_the_emulator_variable_shows_in_the_title(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    window.wait_for("label", name="Local test environment")
