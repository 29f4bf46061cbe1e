"""A sign-in counts as the person's only while the app that started it runs and waits for it. However
the app ends while a sign-in waits (Ctrl+Q, the `quit` action over D-Bus, SIGTERM, SIGKILL), a matching
redirect that starts it again is asked about, naming the provider, and nothing is sent before Continue.
And a program that holds the app's D-Bus name is pointed out at start-up and handed nothing."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import desktop

APP_ID = "io.github.portalauth.SignIn"
OBJECT_PATH = "/io/github/portalauth/SignIn"
TOKENS = "/api/v3/auth/oauth/tokens"
AUTH_PROXY = "/turnkey/auth-proxy/v1"
CONFIRM = "Finish Signing In?"
ROUTES = ["ctrl-q", "dbus-quit", "sigterm", "sigkill"]
SQUATTER = Path(__file__).with_name("bus_name_squatter.py")


def exchanges(emulator):
    return [entry["status"] for entry in emulator.requests("POST", TOKENS)]


def name_owned(session):
    answer = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                             "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", APP_ID],
                            env=session.env, capture_output=True, text=True, timeout=30)
    return "true" in answer.stdout


def wait_until_the_name_is_free(session):
    """An app that just ended (a test before this one) can hold its bus name a moment longer than its window."""
    desktop.wait_until(lambda: not name_owned(session), timeout=30, what=f"{APP_ID} to leave the session bus")


def end_app(session, window, route):
    """Ends the app the way `route` says, and waits until it is gone (its process and its window)."""
    pid = window.pid
    if route == "ctrl-q":
        desktop.press_keys("ctrl+q")
    elif route == "dbus-quit":
        # Any process on the session bus can do this: GApplication exports the app's actions.
        subprocess.run(["gdbus", "call", "--session", "--dest", APP_ID, "--object-path", OBJECT_PATH,
                        "--method", "org.gtk.Actions.Activate", "quit", "[]", "{}"],
                       env=session.env, check=True, capture_output=True, timeout=30)
    else:
        os.kill(pid, signal.SIGTERM if route == "sigterm" else signal.SIGKILL)
    for process in session.processes:
        if process.pid == pid:
            process.wait(timeout=30)
    desktop.wait_until(lambda: desktop.find_application() is None, timeout=30, what="portal-sign-in to exit")
    wait_until_the_name_is_free(session)


def start_sign_in(session, button):
    """Starts a sign-in whose browser stops on the redirect (saved, not delivered); returns the window
    and where the redirect was saved."""
    saved = session.root / "address-bar.txt"
    session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    wait_until_the_name_is_free(session)
    window = session.launch()
    window.click(button)
    window.wait_for_text("Continue in Your Browser")
    desktop.wait_until(lambda: session.browser_events("saved"), what="the browser to reach the redirect")
    return window, saved


@pytest.mark.parametrize("route", ROUTES)
def test_after_the_app_ends_mid_sign_in_its_redirect_is_asked_about_and_nothing_is_sent(session, emulator, route):
    window, saved = start_sign_in(session, "Continue with Google")
    end_app(session, window, route)

    # The sign-in's own redirect, or a grant anyone minted for Google: the restarted app cannot tell.
    assert session.gio_open(session.take_saved(saved)) == 0   # a cold start by D-Bus activation
    window = session.attach()
    window.wait_for_text(CONFIRM)
    assert window.find("label", contains="from Google") is not None, "the question does not name the provider"
    assert exchanges(emulator) == [], "the grant was sent before the person chose"
    window.click("Discard Link")
    window.wait_for_text("Sign In to Portal")
    assert exchanges(emulator) == []
    assert session.stored_session() is None


def test_continue_after_a_restart_still_finishes_the_sign_in(session, emulator):
    window, saved = start_sign_in(session, "Continue with Google")
    end_app(session, window, "sigkill")
    assert session.gio_open(session.take_saved(saved)) == 0
    window = session.attach()
    window.wait_for_text(CONFIRM)
    assert window.find("label", contains="closed") is not None, "the question does not say the app was closed"
    window.click("Sign In")
    window.wait_for_text("You’re Signed In")
    assert exchanges(emulator) == [200]


@pytest.mark.parametrize("route", ["dbus-quit", "sigkill"])
def test_a_turnkey_callback_after_the_app_ended_is_asked_about_and_nothing_is_sent(turnkey_session, emulator, route):
    window, saved = start_sign_in(turnkey_session, "Continue with Discord")
    end_app(turnkey_session, window, route)

    assert turnkey_session.gio_open(turnkey_session.take_saved(saved)) == 0
    window = turnkey_session.attach()
    window.wait_for_text(CONFIRM)
    assert window.find("label", contains="from Discord") is not None, "the question does not name the provider"
    assert emulator.requests("POST", f"{AUTH_PROXY}/oauth2_authenticate") == [], "the code was redeemed unasked"
    # The sign-in's key and verifier are still in the keyring: Continue finishes it.
    window.click("Sign In")
    window.wait_for_text("You’re Signed In")
    assert [entry["status"] for entry in emulator.requests("POST", f"{AUTH_PROXY}/oauth2_authenticate")] == [200]


class Squatter:
    """A program that owns the app's D-Bus name and answers as a GApplication would, logging which
    methods it was called with (never their arguments, which would carry a grant)."""

    def __init__(self, session):
        wait_until_the_name_is_free(session)
        self.log = session.root / "squatter.log"
        self.process = subprocess.Popen(["/usr/bin/python3", str(SQUATTER), APP_ID, OBJECT_PATH, str(self.log)],
                                        env=session.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        desktop.wait_until(lambda: "owned" in self.calls(), what="the squatter to own the name")

    def calls(self):
        return self.log.read_text().split() if self.log.exists() else []

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def squatter(session):
    owner = Squatter(session)
    yield owner
    owner.stop()


def test_a_program_holding_the_apps_bus_name_is_named_and_gets_no_redirect(session, emulator, squatter):
    redirect = session.mint_redirect("alice@example.com")
    window = session.launch(redirect)   # a launcher without D-Bus: Exec=portal-sign-in %u
    window.wait_for("label", contains="holds Portal Sign-In’s name on the session bus")
    assert window.find("label", contains="python3") is not None, "the banner does not name the program"
    session.screenshot("bus-name-squatter")
    assert not {"Open", "Activate", "CommandLine", "ActivateAction", "Activate-action"} & set(squatter.calls()), \
        f"the squatter was handed something: {squatter.calls()}"
    # The link stays here, asked about like any other that this run did not start.
    window.wait_for_text(CONFIRM)
    assert exchanges(emulator) == []


def test_a_second_start_of_the_app_itself_still_goes_to_the_running_one(session, emulator):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    second = subprocess.run([str(session.prefix / "bin" / "portal-sign-in")], env=session.env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60)
    assert second.returncode == 0, second.stderr
    assert window.find("label", contains="holds Portal Sign-In’s name") is None
