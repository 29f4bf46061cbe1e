"""The AppStream screenshots: each page in the light and the dark style, taken on weston (its
weston-screenshooter shows the window's shadow and rounded corners, as a desktop does). Not a test
module of the suite: script/screenshots runs it under `script/with-desktop-session --wayland=weston`
and copies the PNGs into data/screenshots/.

The app looks as it does for a user of the real services: it is configured the way a packager
configures it (an environment ID, the services' addresses) with the emulator behind those
addresses, not chosen as the local test environment, so no "Local test environment" subtitle shows."""
import subprocess

import pytest

import desktop
from test_turnkey import sign_in as turnkey_sign_in

SCHEMES = ["light", "dark"]


@pytest.fixture(autouse=True)
def on_weston():
    assert desktop.COMPOSITOR == "weston", "run by script/screenshots, under with-desktop-session --wayland=weston"


def production_look(emulator):
    """The variables of a configured install, each service's address the emulator's; the emulator
    itself not chosen (PORTAL_AUTH_EMULATOR_HOST unset by the launch)."""
    base = emulator.base_url
    return dict(PORTAL_API_HOST=emulator.host, PORTAL_AUTH_ENVIRONMENT_ID="local-dev",
                TURNKEY_AUTH_PROXY_URL=f"{base}/turnkey/auth-proxy", TURNKEY_AUTH_PROXY_CONFIG_ID="local-dev",
                TURNKEY_API_URL=f"{base}/turnkey/api", TURNKEY_OAUTH_ORIGIN_URL=f"{base}/turnkey/oauth-origin",
                TURNKEY_DISCORD_AUTHORIZE_URL=f"{base}/idp/discord/authorize",
                TURNKEY_X_AUTHORIZE_URL=f"{base}/idp/x/authorize")


def launch(session, emulator, scheme):
    window = session.launch(unset=("PORTAL_AUTH_EMULATOR_HOST",), PORTAL_COLOR_SCHEME=scheme, **production_look(emulator))
    return window


def shot(session, window, name):
    assert not window.has_text("Local test environment"), f"{name} would show the test environment's subtitle"
    path = session.screenshot(name)
    assert path, f"no screenshot of {name}"
    return path


@pytest.mark.parametrize("scheme", SCHEMES)
def test_portal_pages(session, emulator, scheme):
    session.browse(action="hold")
    window = launch(session, emulator, scheme)
    window.wait_for_text("Sign In to Portal")
    shot(session, window, f"sign-in-{scheme}")
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    desktop.wait_until(lambda: session.browser_events("opened"), what="the browser to open")
    shot(session, window, f"browser-wait-{scheme}")
    session.quit_app()

    session.browse(email="totp@example.com", action="continue")
    window = launch(session, emulator, scheme)
    window.click("Continue with Google")
    window.wait_for_text("Set Up Two-Factor Sign-In")
    shot(session, window, f"totp-enrolment-{scheme}")
    secret = emulator.admin("users/totp@example.com/totp")["secret"]
    code = subprocess.run(["oathtool", "--totp", "-b", secret], capture_output=True, text=True, check=True).stdout.strip()
    window.type_into("Six-digit code", code)
    window.wait_for_text("You’re Signed In")

    # Signed in as someone whose client has wallets: what the page is for.
    window.sign_out()
    window.wait_for_text("Sign In to Portal")
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    window.wait_for("label", name="EVM")
    window.wait_gone("label", name="Signed out", timeout=15)  # the sign-out's toast, over Sign Out
    shot(session, window, f"signed-in-{scheme}")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_turnkey_pages(turnkey_session, emulator, scheme):
    window = launch(turnkey_session, emulator, scheme)
    window.wait_for_text("Sign In to Turnkey")
    shot(turnkey_session, window, f"turnkey-sign-in-{scheme}")
    turnkey_sign_in(turnkey_session, window, "discord")
    shot(turnkey_session, window, f"turnkey-signed-in-{scheme}")
