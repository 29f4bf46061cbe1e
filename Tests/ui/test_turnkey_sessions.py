"""Turnkey sessions over time (refreshed before they expire, ended when Turnkey refuses them) and the
Turnkey sign-in page's look and languages."""
import json
from pathlib import Path

import pytest

import desktop
from test_appearance import close_to, fill_colour
from test_language import launch_with_locale
from test_turnkey import KEYS, SESSIONS, detail, sign_in

STAMP_LOGIN = "/turnkey/api/public/v1/submit/stamp_login"
SHORT_SESSION_SECONDS = 40


@pytest.fixture
def emulator_arguments(tmp_path):
    """The built-in configuration with Turnkey sessions of 40 seconds."""
    config = json.loads((Path(__file__).parents[2] / "data" / "emulator" / "local-dev.json").read_text())
    for auth_proxy in config["turnkey"]["authProxyConfigs"]:
        auth_proxy["sessionExpirationSeconds"] = SHORT_SESSION_SECONDS
    path = tmp_path / "short-sessions.json"
    path.write_text(json.dumps(config))
    return ("--config", str(path))


def test_a_session_is_refreshed_on_a_new_key_before_it_expires(turnkey_session, emulator):
    # Refresh 35 s before expiry: about 5 s after signing in.
    window = turnkey_session.launch(PORTAL_TURNKEY_REFRESH_AT="35")
    sign_in(turnkey_session, window, "discord")
    first_key = [item["public-key"] for item in turnkey_session.turnkey_items(KEYS)]
    first_expiry = detail(window, "Session renews before")
    assert len(first_key) == 1

    desktop.wait_until(lambda: 200 in [e["status"] for e in emulator.requests("POST", STAMP_LOGIN)], timeout=30,
                       what="the app to renew its session (stamp_login)")
    desktop.wait_until(lambda: detail(window, "Session renews before") != first_expiry, timeout=15,
                       what="the page to show the renewed session's expiry")
    keys = [item["public-key"] for item in turnkey_session.turnkey_items(KEYS)]
    assert len(keys) == 1 and keys != first_key, "the session was not moved to a new key (or the old key was kept)"
    assert [item["session-key"] for item in turnkey_session.turnkey_items(SESSIONS)] == ["default"]
    live_keys = {s["publicKey"] for s in emulator.admin("turnkey")["sessions"]}
    assert keys[0] in live_keys, "the stored key is not a session Turnkey knows"
    assert window.has_text("You’re Signed In")


def test_a_refresh_turnkey_refuses_ends_the_session_with_a_message(turnkey_session, emulator):
    window = turnkey_session.launch(PORTAL_TURNKEY_REFRESH_AT=str(SHORT_SESSION_SECONDS - 8))
    sign_in(turnkey_session, window, "x")
    # Turnkey's clock passes the session's expiry before the app renews it: the renewal is refused.
    emulator.admin("clock", {"advanceSeconds": SHORT_SESSION_SECONDS + 1})
    window.wait_for("alert", name="Session Ended", timeout=40)
    assert window.has_text("Your session has ended. Sign in again to continue.")
    assert [e["status"] for e in emulator.requests("POST", STAMP_LOGIN)] == [401]
    assert turnkey_session.turnkey_items(SESSIONS) == [] and turnkey_session.turnkey_items(KEYS) == []
    # Sign In Again starts a sign-in with the same provider.
    turnkey_session.browse(email="alice@example.com", action="continue")
    window.click("Sign In Again")
    window.wait_for_text("You’re Signed In")
    assert window.detail("Signed in with") == "X"


def render(session, scheme):
    window = session.launch(PORTAL_COLOR_SCHEME=scheme)
    window.wait_for_text("Sign In to Turnkey")
    boxes = {name: window.extents(window.wait_for("push button", name=f"Continue with {name}"))
             for name in ("Google", "Apple", "Discord", "X")}
    path = session.screenshot(f"turnkey-sign-in-{scheme}")
    session.quit_app()
    return path, boxes


def test_discord_and_x_buttons_follow_their_brand_rules_in_light_and_dark(turnkey_session):
    light, light_boxes = render(turnkey_session, "light")
    dark, dark_boxes = render(turnkey_session, "dark")
    for boxes in (light_boxes, dark_boxes):
        sizes = {box[2:] for box in boxes.values()}
        assert len(sizes) == 1, f"the four buttons differ in size: {boxes}"
    # Discord: Blurple in both styles. X: black in light, reversed (white) in dark.
    assert close_to(fill_colour(light, light_boxes["Discord"]), (0x58, 0x65, 0xF2))
    assert close_to(fill_colour(dark, dark_boxes["Discord"]), (0x58, 0x65, 0xF2))
    assert close_to(fill_colour(light, light_boxes["X"]), (0x00, 0x00, 0x00))
    assert close_to(fill_colour(dark, dark_boxes["X"]), (0xFF, 0xFF, 0xFF))


@pytest.mark.parametrize("language, locale, window_title, title, discord, x", [
    ("de", "de_DE.UTF-8", "Portal-Anmeldung", "Bei Turnkey anmelden", "Weiter mit Discord", "Weiter mit X"),
    ("fr", "fr_FR.UTF-8", "Connexion Portal", "Se connecter à Turnkey", "Continuer avec Discord", "Continuer avec X"),
])
def test_the_turnkey_sign_in_page_in_german_and_french(turnkey_session, language, locale, window_title, title, discord, x):
    window = launch_with_locale(turnkey_session, LANG=locale, LANGUAGE=language)
    window.wait_for_text(title)
    for name in (discord, x):
        assert window.find("push button", name=name) is not None, f"no button named '{name}'"
    assert window.find("push button", name="Continue with Discord") is None, "still in English"
    turnkey_session.screenshot(f"turnkey-sign-in-{language}", title=f"^{window_title}$")
