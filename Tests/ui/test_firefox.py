"""Sign-ins in a real Firefox ESR (Tests/ui/firefox.py): Firefox is the session's browser, the app
its handler for io.github.portalauth.signin, and the redirect reaches the running app the way Firefox
hands any link to an app: through GIO and D-Bus activation (org.freedesktop.Application.Open, no
command line). With Firefox's default preferences it first asks "Allow this site to open the … link
with Portal Sign-In?", and the test accepts it as a person would (Open Link, in Firefox's own window:
the chrome context); the other run sets the preference that skips the question."""
import os
import subprocess

import pytest

import desktop
from firefox import HANDLER_PREF, Firefox

APP_DESKTOP = "io.github.portalauth.SignIn.desktop"
SCHEME = "io.github.portalauth.signin"


@pytest.fixture(scope="module")
def firefox(tmp_path_factory, prefix):
    """One headless Firefox for the module, with Firefox's defaults for the app's scheme. Its own
    XDG dirs say (as a desktop's mimeapps.list does) that the app handles the scheme."""
    root = tmp_path_factory.mktemp("firefox")
    config = root / "config"
    config.mkdir()
    (config / "mimeapps.list").write_text(f"[Default Applications]\nx-scheme-handler/{SCHEME}={APP_DESKTOP}\n")
    env = dict(os.environ, HOME=str(root), XDG_CONFIG_HOME=str(config), XDG_DATA_HOME=str(root / "data"),
               XDG_CACHE_HOME=str(root / "cache"), XDG_DATA_DIRS=f"{prefix / 'share'}:/usr/local/share:/usr/share",
               MOZ_HEADLESS="1", GTK_USE_PORTAL="0")
    browser = Firefox(root / "profile", env, log=root / "firefox.log").start()
    yield browser
    browser.stop()


def make_default_browser(session, browser):
    """Firefox instead of the scripted browser as the session's http/https handler."""
    applications = session.root / "data" / "applications"
    (applications / "portal-test-firefox.desktop").write_text(browser.desktop_entry())
    subprocess.run(["update-desktop-database", str(applications)], env=session.env, check=True)
    for scheme in ("http", "https"):
        subprocess.run(["xdg-mime", "default", "portal-test-firefox.desktop", f"x-scheme-handler/{scheme}"],
                       env=session.env, check=True)


def totp(secret):
    return subprocess.run(["oathtool", "--totp", "-b", secret], capture_output=True, text=True, check=True).stdout.strip()


def test_portal_google_with_totp_in_firefox_asking_to_open_the_link(session, emulator, firefox):
    make_default_browser(session, firefox)
    window = session.launch()
    window.click("Continue with Google")

    firefox.open(firefox.next_url())
    assert firefox.path() == "/idp/google/authorize"
    firefox.choose_account("totp@example.com")
    # Firefox's defaults: nothing reaches the app until the person allows it.
    dialog = firefox.accept_open_link_dialog()
    assert "Portal Sign-In" in dialog["text"] and SCHEME in dialog["text"], dialog["text"]
    assert dialog["button"] == "Open Link"

    window.wait_for_text("Set Up Two-Factor Sign-In")
    window.type_into("Six-digit code", totp(emulator.admin("users/totp@example.com/totp")["secret"]))
    window.wait_for_text("You’re Signed In")
    end_user = [u for u in emulator.admin("state")["users"] if u["email"] == "totp@example.com"][0]["endUserId"]
    assert window.detail("End user") == end_user
    assert session.stored_session() is not None
    assert firefox.open_link_dialog() is None, "the dialog is still open"


def test_turnkey_discord_in_firefox_allowed_to_open_the_link(turnkey_session, emulator, firefox):
    make_default_browser(turnkey_session, firefox)
    firefox.client.set_pref(HANDLER_PREF, True)   # what "Always allow" or the user preference sets
    try:
        window = turnkey_session.launch()
        window.wait_for_text("Sign In to Turnkey")
        window.click("Continue with Discord")

        firefox.open(firefox.next_url())
        assert firefox.path() == "/idp/discord/authorize"
        firefox.choose_account("alice@example.com")
        window.wait_for_text("You’re Signed In")
        assert firefox.open_link_dialog() is None, "Firefox asked although the preference allows the link"
        labels = window.labels()
        assert labels[labels.index("Signed in with") + 1] == "Discord"
        assert len(emulator.admin("turnkey")["sessions"]) == 1
    finally:
        firefox.client.clear_pref(HANDLER_PREF)
