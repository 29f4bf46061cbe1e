"""Back to the app: a sign-in that finishes while the window is behind another one brings the person
back — a desktop notification (GNotification, served here by Tests/ui/notifications.py) whose click
raises the window, or, with the activation token the redirect came with, the window raising itself;
nothing while the window is the active one. X11 only: another window takes the focus with xdotool."""
import subprocess
import time

import pyatspi
import pytest
from gi.repository import Gio, GLib

import desktop
from notifications import NotificationServer

TOKENS = "/api/v3/auth/oauth/tokens"


@pytest.fixture
def notifications(tmp_path):
    server = NotificationServer(tmp_path / "notifications.jsonl").start()
    yield server
    server.stop()


@pytest.fixture
def other_window():
    """Another X11 window (xmessage) that can take the focus from the app, like a browser would."""
    process = subprocess.Popen(["xmessage", "-geometry", "300x80+600+500", "Another window"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def find():
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "Xmessage"],
                               capture_output=True, text=True).stdout.split()
        return found[-1] if found else None

    wid = desktop.wait_until(find, what="the other window")

    def focus():
        subprocess.run(["xdotool", "windowraise", wid], check=True)
        subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=True)
    yield focus
    process.terminate()
    process.wait(timeout=10)


def frame(window):
    return desktop.wait_until(lambda: window.find("frame", name="Portal Sign-In"), what="the app's frame")


def is_active(window):
    return desktop.read_tree(lambda: frame(window).getState().contains(pyatspi.STATE_ACTIVE))


def has_x_focus():
    """Whether the X server gives the app's window the keyboard (quicker to ask than AT-SPI, so a
    check made while the exchange runs is not late)."""
    focused = subprocess.run(["xdotool", "getwindowfocus"], capture_output=True, text=True).stdout.strip()
    return focused == desktop.window_id()


def sign_in_behind(session, window, other_window, emulator, button="Continue with Google"):
    """Starts a browser sign-in whose code exchange takes a few seconds, and puts the other window in
    front while it runs (the app comes forward when the redirect arrives, as the desktop hands it over)."""
    emulator.fault(TOKENS, "hang", seconds=6)
    window.click(button)
    desktop.wait_until(lambda: session.browser_events("delivered"), what="the browser to hand the redirect over")
    other_window()
    desktop.wait_until(lambda: not has_x_focus(), what="the app's window to be behind the other one")


def test_a_sign_in_finished_behind_another_window_notifies_and_the_notification_brings_it_back(
        session, emulator, notifications, other_window):
    session.browse(email="alice@example.com", action="continue")
    window = session.launch()
    desktop.wait_until(lambda: is_active(window), what="the app's window to be active")
    sign_in_behind(session, window, other_window, emulator)

    window.wait_for_text("You’re Signed In")
    shown = desktop.wait_until(notifications.notifications, what="a notification")
    end_user = [u for u in emulator.admin("state")["users"] if u["email"] == "alice@example.com"][0]["endUserId"]
    assert [(n["summary"], n["body"]) for n in shown] == [
        (f"Signed in to Portal as {end_user}", "Open Portal Sign-In to see your account.")]
    assert "default" in shown[0]["actions"], "clicking the notification does nothing"
    assert not is_active(window), "the window came forward by itself, yet a notification was sent too"

    notifications.click(shown[0])
    desktop.wait_until(lambda: is_active(window), what="the notification's click to bring the window forward")
    assert len(notifications.notifications()) == 1


def test_a_two_factor_code_wanted_behind_another_window_notifies_until_the_window_is_back(
        session, emulator, notifications, other_window):
    session.browse(email="totp@example.com", action="continue")
    window = session.launch()
    desktop.wait_until(lambda: is_active(window), what="the app's window to be active")
    sign_in_behind(session, window, other_window, emulator)

    window.wait_for_text("Set Up Two-Factor Sign-In")
    shown = desktop.wait_until(notifications.notifications, what="a notification")
    assert [n["summary"] for n in shown] == ["Enter Your Two-Factor Code"]
    assert "six-digit code" in shown[0]["body"]
    assert notifications.events("close") == []
    # The person comes back another way (the window list, Alt+Tab): the notification is withdrawn.
    subprocess.run(["xdotool", "windowfocus", "--sync", desktop.window_id()], check=True)
    desktop.wait_until(lambda: is_active(window), what="the app's window to be active")
    closed = desktop.wait_until(lambda: notifications.events("close"), what="the notification to be withdrawn")
    assert [c["id"] for c in closed] == [shown[0]["id"]]


def test_no_notification_while_the_window_is_active(session, emulator, notifications):
    session.browse(email="alice@example.com", action="continue")
    window = session.launch()
    desktop.wait_until(lambda: is_active(window), what="the app's window to be active")
    emulator.fault(TOKENS, "hang", seconds=2)
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    assert is_active(window)
    time.sleep(1.5)   # a notification would be on the bus within milliseconds of the page
    assert notifications.notifications() == []


def test_a_redirect_with_an_activation_token_raises_the_window_instead(session, emulator, notifications, other_window):
    """A launcher that passes a token (platform data desktop-startup-id): the window presents itself
    with it when the sign-in finishes behind another window, and no notification is sent."""
    saved = session.root / "redirect.txt"
    session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    window = session.launch(PORTAL_DEBUG="1")
    desktop.wait_until(lambda: is_active(window), what="the app's window to be active")
    window.click("Continue with Google")
    desktop.wait_until(saved.exists, what="the browser to end on the redirect")
    redirect = session.take_saved(saved)
    emulator.fault(TOKENS, "hang", seconds=8)
    token = "portal-test-launch-1"
    # As a desktop's launcher hands a link over: org.freedesktop.Application.Open with its token
    # (from this process, so the grant is on no command line).
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    bus.call("io.github.portalauth.SignIn", "/io/github/portalauth/SignIn", "org.freedesktop.Application", "Open",
             GLib.Variant("(asa{sv})", ([redirect], {"desktop-startup-id": GLib.Variant("s", token)})),
             None, Gio.DBusCallFlags.NONE, 30000, None, None)
    window.wait_for_text("Signing in…")
    other_window()
    desktop.wait_until(lambda: not has_x_focus(), what="the app's window to be behind the other one")

    window.wait_for_text("You’re Signed In")
    desktop.wait_until(lambda: is_active(window) or notifications.notifications(), what="the window to present itself")
    assert notifications.notifications() == [], "a notification was sent though the request came with a token"
    assert is_active(window)
    startup_id = subprocess.run(["xprop", "-id", desktop.window_id(), "_NET_STARTUP_ID"],
                                capture_output=True, text=True).stdout
    assert token in startup_id, f"the window did not present itself with the request's token: {startup_id.strip()}"
    assert notifications.notifications() == []
