"""No Secret Service at all: the sign-in buttons wait, insensitive, under advice that names what to
install, until a keyring appears on the bus (or Try Again finds one). Nothing is sent meanwhile, so
no grant is spent that no keyring could keep."""
import subprocess

import pyatspi
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


def sensitive(window, name):
    button = window.wait_for("push button", name=name)
    return button.getState().contains(pyatspi.STATE_SENSITIVE)


def test_without_a_keyring_sign_in_waits_until_one_starts(session, emulator, bare_bus):
    window = session.launch(wrapper=bare_bus.wrapper)
    said = window.wait_for("label", contains=ADVICE).name
    assert "GNOME Keyring" in said and "KWallet" in said and "KeePassXC" in said, said
    assert not sensitive(window, "Continue with Google"), "a sign-in could start without a keyring"
    assert not sensitive(window, "Continue with Apple")
    session.screenshot("no-keyring")

    # Try Again without a keyring: the advice comes back, the buttons still wait.
    window.click("Try Again")
    window.wait_for("label", contains=ADVICE)
    assert not sensitive(window, "Continue with Google")
    assert emulator.requests("GET", URLS) == [] and emulator.requests("POST", TOKENS) == [], \
        "a sign-in request went out without a keyring"

    # A keyring starts: the app sees its bus name appear and lets sign-in go on, by itself.
    bare_bus.start_keyring()
    desktop.wait_until(lambda: sensitive(window, "Continue with Google"), timeout=20,
                       what="the sign-in buttons to wake once a keyring runs")
    assert window.find("label", contains=ADVICE) is None, "the advice stayed after the keyring started"
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You're signed in")
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
    window.click("Continue")
    window.wait_for_text("You're signed in")
    assert [r["status"] for r in emulator.requests("POST", TOKENS)] == [200]


def test_a_keyring_restarted_while_the_app_runs_still_keeps_the_next_sign_in(session, emulator, bare_bus):
    """The app's Secret Service session (opened for the first sign-in) is unknown to a restarted
    keyring: the next sign-in must still be kept, on a new session, not fail on the old one."""
    bare_bus.start_keyring()
    window = session.launch(wrapper=bare_bus.wrapper)
    window.click("Continue with Google")
    window.wait_for_text("You're signed in")
    window.sign_out()
    window.wait_for_text("Sign in to Portal")

    bare_bus.restart_keyring()
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You're signed in")
    stored = bare_bus.secret_tool("lookup", "--", "auth-environment-id", "local-dev",
                                  "session-key", session.env["PORTAL_SESSION_KEY"])
    assert stored.returncode == 0 and stored.stdout, "the session is not in the restarted keyring"
    assert len(emulator.requests("POST", TOKENS)) == 2
