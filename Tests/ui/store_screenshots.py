"""The AppStream screenshots: each page in the light and the dark style, taken on weston (its
weston-screenshooter shows the window's shadow and rounded corners, as a desktop does). Not a test
module of the suite: script/screenshots runs it under `script/with-desktop-session --wayland=weston`
and copies the PNGs into data/screenshots/."""
import subprocess

import pytest

import desktop
from test_turnkey import sign_in as turnkey_sign_in

SCHEMES = ["light", "dark"]


@pytest.fixture(autouse=True)
def on_weston():
    assert desktop.COMPOSITOR == "weston", "run by script/screenshots, under with-desktop-session --wayland=weston"


def shot(session, name):
    path = session.screenshot(name)
    assert path, f"no screenshot of {name}"
    return path


@pytest.mark.parametrize("scheme", SCHEMES)
def test_portal_pages(session, emulator, scheme):
    session.browse(action="hold")
    window = session.launch(PORTAL_COLOR_SCHEME=scheme)
    window.wait_for_text("Sign In to Portal")
    shot(session, f"sign-in-{scheme}")
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    desktop.wait_until(lambda: session.browser_events("opened"), what="the browser to open")
    shot(session, f"browser-wait-{scheme}")
    session.quit_app()

    session.browse(email="totp@example.com", action="continue")
    window = session.launch(PORTAL_COLOR_SCHEME=scheme)
    window.click("Continue with Google")
    window.wait_for_text("Set Up Two-Factor Sign-In")
    shot(session, f"totp-enrolment-{scheme}")
    secret = emulator.admin("users/totp@example.com/totp")["secret"]
    code = subprocess.run(["oathtool", "--totp", "-b", secret], capture_output=True, text=True, check=True).stdout.strip()
    window.type_into("Six-digit code", code)
    window.wait_for_text("You’re Signed In")
    shot(session, f"signed-in-{scheme}")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_turnkey_pages(turnkey_session, emulator, scheme):
    window = turnkey_session.launch(PORTAL_COLOR_SCHEME=scheme)
    window.wait_for_text("Sign In to Turnkey")
    shot(turnkey_session, f"turnkey-sign-in-{scheme}")
    turnkey_sign_in(turnkey_session, window, "discord")
    shot(turnkey_session, f"turnkey-signed-in-{scheme}")
