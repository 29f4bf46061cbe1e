"""No Secret Service at all: a "No Keyring" page that names what to install stands in for sign-in
until a keyring appears on the bus (or Try Again finds one). Nothing is sent meanwhile, so
no grant is spent that no keyring could keep."""
import subprocess

import pytest

import desktop
import keyring

URLS = "/api/v3/auth/oauth/urls"
TOKENS = "/api/v3/auth/oauth/tokens"
ADVICE = "No keyring service is running"


@pytest.fixture
def bare_bus(tmp_path):
    bus = keyring.BareBus(tmp_path)
    yield bus
    bus.stop()


def test_without_a_keyring_sign_in_waits_until_one_starts(session, emulator, bare_bus):
    window = session.launch(wrapper=bare_bus.wrapper)
    # A page of its own, announced (an alert), that says what to install; no sign-in is offered.
    window.wait_for("alert", name="No Keyring")
    said = window.wait_for("label", contains=ADVICE).name
    assert "GNOME Keyring" in said and "KWallet" in said and "KeePassXC" in said, said
    assert window.find("push button", name="Continue with Google") is None, "a sign-in is offered without a keyring"
    assert window.find("push button", name="Dismiss") is None, "the advice can be dismissed into a dead window"
    session.screenshot("no-keyring")

    # Try Again without a keyring: it says so, and the page stays.
    window.click("Try Again")
    window.wait_for("label", name="Still no keyring service")
    assert window.find("alert", name="No Keyring") is not None
    assert emulator.requests("GET", URLS) == [] and emulator.requests("POST", TOKENS) == [], \
        "a sign-in request went out without a keyring"

    # A keyring starts: the app sees its bus name appear and lets sign-in go on, by itself.
    bare_bus.start_keyring()
    window.wait_for("push button", name="Continue with Google", timeout=20)
    assert window.find("label", contains=ADVICE) is None, "the advice stayed after the keyring started"
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    assert len(emulator.requests("POST", TOKENS)) == 1
    stored = bare_bus.secret_tool("lookup", "--", "auth-environment-id", "local-dev",
                                  "session-key", session.env["PORTAL_SESSION_KEY"])
    assert stored.returncode == 0 and stored.stdout, "the session is not in the keyring that started"


def test_without_a_keyring_a_redirect_from_the_desktop_keeps_its_grant(session, emulator, bare_bus):
    redirect = session.mint_redirect("alice@example.com")
    window = session.launch(wrapper=bare_bus.wrapper)
    window.wait_for("label", contains=ADVICE)
    # The desktop hands the app the redirect over the app's own bus (no pipes: gio may start things).
    subprocess.run(["gio", "open", redirect], env=dict(session.env, DBUS_SESSION_BUS_ADDRESS=bare_bus.address),
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=True)
    assert emulator.requests("POST", TOKENS) == [], "the grant was spent without a keyring to keep its session"
    bare_bus.start_keyring()
    # The redirect waited for the keyring: the app did not ask for it, so the person decides, and
    # the grant is still good.
    desktop.wait_until(lambda: window.find("label", contains=ADVICE) is None, timeout=20,
                       what="the advice to go once a keyring runs")
    window.click("Sign In")
    window.wait_for_text("You’re Signed In")
    assert [r["status"] for r in emulator.requests("POST", TOKENS)] == [200]


def test_a_keyring_restarted_while_the_app_runs_still_keeps_the_next_sign_in(session, emulator, bare_bus):
    """The app's Secret Service session (opened for the first sign-in) is unknown to a restarted
    keyring: the next sign-in must still be kept, on a new session, not fail on the old one."""
    bare_bus.start_keyring()
    window = session.launch(wrapper=bare_bus.wrapper)
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    window.sign_out()
    window.wait_for_text("Sign In to Portal")

    bare_bus.restart_keyring()
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    stored = bare_bus.secret_tool("lookup", "--", "auth-environment-id", "local-dev",
                                  "session-key", session.env["PORTAL_SESSION_KEY"])
    assert stored.returncode == 0 and stored.stdout, "the session is not in the restarted keyring"
    assert len(emulator.requests("POST", TOKENS)) == 2
