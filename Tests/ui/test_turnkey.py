"""Turnkey in the app: the four providers end to end against the emulator's Turnkey side, through the
scripted browser, the scheme handler and the real keyring."""
import base64
import hashlib
import json
import secrets
import subprocess
import urllib.parse
from pathlib import Path

import pytest

import desktop

SESSIONS = "io.github.portalauth.TurnkeySession"
KEYS = "io.github.portalauth.TurnkeyKey"
PENDING = "io.github.portalauth.TurnkeyPending"
AUTH_PROXY = "/turnkey/auth-proxy/v1"
FAKE_BROWSER = Path(__file__).with_name("fake_browser.py")
BUTTONS = {"google": "Continue with Google", "apple": "Continue with Apple",
           "discord": "Continue with Discord", "x": "Continue with X"}
NAMES = {"google": "Google", "apple": "Apple", "discord": "Discord", "x": "X"}


def detail(window, heading):
    """The value the Signed in page shows under `heading`."""
    return window.detail(heading)


def newest_user(emulator):
    """The user Turnkey created last: its name is the app's to show (X shares no email, so Turnkey
    names that user "user-<time>")."""
    return emulator.admin("turnkey")["users"][-1]


def shown_account(window):
    """The account the switcher marks as shown, by name: GTK 4.8 shows a toggle button as a push
    button whose state is PRESSED while it is on."""
    checked = window.pressed()
    return checked[0] if len(checked) == 1 else None


def statuses(emulator, path):
    return [entry["status"] for entry in emulator.requests("POST", path)]


def live_sessions(emulator):
    return emulator.admin("turnkey")["sessions"]


def sign_in(session, window, provider, email="alice@example.com"):
    session.browse(email=email, action="continue")
    window.click(BUTTONS[provider])
    window.wait_for_text("You’re Signed In")


def assert_one_stored_session(session, emulator, session_key="default"):
    """The keyring holds exactly the session the emulator issued, under `session_key`, with its key."""
    stored = session.turnkey_items(SESSIONS)
    assert [item.get("session-key") for item in stored] == [session_key]
    assert stored[0].get("auth-proxy-config-id") == "local-dev"
    live = live_sessions(emulator)
    assert [item.get("public-key") for item in session.turnkey_items(KEYS)] == [live[-1]["publicKey"]], \
        "the keyring's key is not the live session's"
    assert session.turnkey_items(PENDING) == [], "a finished sign-in is still pending"


@pytest.mark.journey
@pytest.mark.parametrize("provider", ["discord", "x"])
def test_discord_and_x_sign_in_with_pkce_and_state(turnkey_session, emulator, provider):
    window = turnkey_session.launch()
    window.wait_for_text("Sign In to Turnkey")
    sign_in(turnkey_session, window, provider)

    opened = turnkey_session.browser_events("opened")
    assert [event["path"] for event in opened] == [f"/idp/{provider}/authorize"]
    assert {"code_challenge", "state"} <= set(opened[0]["parameters"]) and opened[0]["code_challenge_method"] == "S256"
    assert [(e["has_code"], e["has_state"]) for e in turnkey_session.browser_events("delivered")] == [(True, True)]
    # The emulator checked the verifier against the challenge before it answered 200.
    assert statuses(emulator, f"{AUTH_PROXY}/oauth2_authenticate") == [200]
    assert detail(window, "Signed in with") == NAMES[provider]
    organization = emulator.admin("turnkey")["organizations"][0]
    assert detail(window, "Organization") == organization["organizationName"]
    assert detail(window, "User") == newest_user(emulator)["userName"]
    assert_one_stored_session(turnkey_session, emulator)
    if provider == "discord":
        turnkey_session.screenshot("turnkey-signed-in")


def test_a_code_bound_to_another_challenge_is_refused_by_turnkey_and_nothing_is_kept(turnkey_session, emulator):
    # A page that rewrites the authorize link: the code is issued for someone else's challenge, so
    # the app's verifier cannot redeem it.
    other_challenge = base64.urlsafe_b64encode(hashlib.sha256(b"not the app's verifier").digest()).rstrip(b"=").decode()
    turnkey_session.browse(email="alice@example.com", action="continue", tamper={"code_challenge": other_challenge})
    window = turnkey_session.launch()
    window.click("Continue with Discord")
    window.wait_for("label", name="Turnkey did not accept the sign-in. Sign in again.")
    assert window.has_text("Sign In to Turnkey"), "not back on the sign-in page"
    assert statuses(emulator, f"{AUTH_PROXY}/oauth2_authenticate") == [401]
    assert emulator.requests("POST", f"{AUTH_PROXY}/oauth_login") == []
    assert turnkey_session.turnkey_items(SESSIONS) == [] and live_sessions(emulator) == []


@pytest.mark.parametrize("provider", ["google", "apple"])
def test_google_and_apple_go_through_the_origin_and_redirect_pages(turnkey_session, emulator, provider):
    window = turnkey_session.launch()
    sign_in(turnkey_session, window, provider)
    opened = turnkey_session.browser_events("opened")
    assert [event["path"] for event in opened] == ["/turnkey/oauth-origin"]
    assert {"provider", "clientId", "redirectUri", "nonce"} <= set(opened[0]["parameters"])
    assert [(e["has_id_token"], e["has_state"]) for e in turnkey_session.browser_events("delivered")] == [(True, True)]
    # The emulator answered oauth_login only for an id_token whose nonce is the session key's hash.
    assert statuses(emulator, f"{AUTH_PROXY}/oauth_login") == [200]
    assert detail(window, "Signed in with") == NAMES[provider]
    assert_one_stored_session(turnkey_session, emulator)


def test_an_id_token_for_another_key_is_refused_before_anything_is_sent(turnkey_session, emulator):
    turnkey_session.browse(email="alice@example.com", action="continue", tamper={"nonce": "0" * 64})
    window = turnkey_session.launch()
    window.click("Continue with Google")
    window.wait_for("label", contains="belongs to another sign-in")
    assert emulator.requests("POST", f"{AUTH_PROXY}/oauth_login") == []
    assert emulator.requests("POST", f"{AUTH_PROXY}/signup_v2") == []
    assert turnkey_session.turnkey_items(SESSIONS) == []


def test_signup_then_login_reaches_the_same_organization(turnkey_session, emulator):
    window = turnkey_session.launch()
    sign_in(turnkey_session, window, "google")
    first = detail(window, "Organization")
    window.sign_out()
    window.wait_for_text("Sign In to Turnkey")
    sign_in(turnkey_session, window, "google")
    assert detail(window, "Organization") == first
    assert statuses(emulator, f"{AUTH_PROXY}/signup_v2") == [200], "the second sign-in signed up again"
    assert statuses(emulator, f"{AUTH_PROXY}/oauth_login") == [200, 200]
    assert len(emulator.admin("turnkey")["organizations"]) == 1


def foreign_discord_redirect(session, emulator):
    """A genuine Discord redirect (a real code) for a sign-in this app never started: the state and
    verifier are the test's. Saved by the browser, never printed."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = urllib.parse.urlencode({"client_id": "emulator-turnkey-discord", "redirect_uri": "io.github.portalauth.signin://",
                                    "response_type": "code", "code_challenge": challenge,
                                    "code_challenge_method": "S256", "scope": "identify email",
                                    "state": secrets.token_urlsafe(16)})
    saved = session.root / "foreign-redirect.txt"
    control = json.loads(session.control.read_text())
    session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    subprocess.run(["/usr/bin/python3", str(FAKE_BROWSER), f"{emulator.base_url}/idp/discord/authorize?{query}"],
                   env=session.env, check=True, timeout=60)
    session.control.write_text(json.dumps(control))
    return session.take_saved(saved)


REFUSED = "This sign-in link was not started in this window"


def test_a_redirect_whose_state_this_app_did_not_issue_is_refused(turnkey_session, emulator):
    uri = foreign_discord_redirect(turnkey_session, emulator)
    assert uri.startswith("io.github.portalauth.signin://?code=")
    window = turnkey_session.launch()
    window.wait_for_text("Sign In to Turnkey")
    assert turnkey_session.gio_open(uri) == 0
    window.wait_for("label", contains=REFUSED)
    turnkey_session.screenshot("turnkey-foreign-state-refused")
    assert emulator.requests("POST", f"{AUTH_PROXY}/oauth2_authenticate") == [], "a foreign code was redeemed"
    assert turnkey_session.turnkey_items(SESSIONS) == []

    # While a real Discord sign-in waits, the foreign redirect neither finishes nor ends it.
    turnkey_session.browse(action="hold")
    window.click("Continue with Discord")
    window.wait_for_text("Continue in Your Browser")
    assert turnkey_session.gio_open(uri) == 0
    window.wait_for("label", contains=REFUSED)
    assert window.has_text("Continue in Your Browser"), "the waiting sign-in was ended by a foreign redirect"
    assert emulator.requests("POST", f"{AUTH_PROXY}/oauth2_authenticate") == []
    window.click("Cancel")
    window.wait_for_text("Sign In to Turnkey")
    assert turnkey_session.turnkey_items(PENDING) == [] and turnkey_session.turnkey_items(KEYS) == [], \
        "Cancel left the sign-in's record or key in the keyring"


def test_a_cold_start_by_a_foreign_redirect_is_refused_too(turnkey_session, emulator):
    uri = foreign_discord_redirect(turnkey_session, emulator)
    assert turnkey_session.gio_open(uri) == 0   # the desktop starts the app over D-Bus
    window = turnkey_session.attach()
    window.wait_for("label", contains=REFUSED)
    assert window.has_text("Sign In to Turnkey")
    assert emulator.requests("POST", f"{AUTH_PROXY}/oauth2_authenticate") == []


def test_two_sessions_are_listed_and_switched_and_sign_out_removes_one_with_its_key(turnkey_session, emulator):
    window = turnkey_session.launch()
    sign_in(turnkey_session, window, "discord")
    window.click("Add Account")
    window.wait_for_text("Sign In to Turnkey")
    assert window.find("push button", name="Back to Your Accounts") is not None
    discord_title = f"{newest_user(emulator)['userName']} · Discord"
    sign_in(turnkey_session, window, "x", email="bob@example.com")
    bob = newest_user(emulator)
    x_title = f"{bob['userName']} · X"
    desktop.wait_until(lambda: shown_account(window) == x_title, what="the X account to be shown")
    assert detail(window, "Signed in with") == "X"
    assert sorted(item["session-key"] for item in turnkey_session.turnkey_items(SESSIONS)) == ["default", "default-2"]
    assert len(turnkey_session.turnkey_items(KEYS)) == 2
    turnkey_session.screenshot("turnkey-two-accounts")

    window.click(discord_title)
    desktop.wait_until(lambda: shown_account(window) == discord_title, what="the Discord account to be shown")
    assert detail(window, "Signed in with") == "Discord" and discord_title.startswith(detail(window, "User"))

    # Restarting lists both again (providers from Turnkey's get_user).
    turnkey_session.quit_app()
    window = turnkey_session.launch()
    window.wait_for("push button", name=discord_title)
    window.wait_for("push button", name=x_title)
    if shown_account(window) != discord_title:
        window.click(discord_title)
    window.sign_out()
    window.wait_for("label", name=bob["userName"])
    assert [item["session-key"] for item in turnkey_session.turnkey_items(SESSIONS)] == ["default-2"]
    bobs_keys = {s["publicKey"] for s in live_sessions(emulator) if s["userId"] == bob["userId"]}
    remaining = [item["public-key"] for item in turnkey_session.turnkey_items(KEYS)]
    assert len(remaining) == 1 and remaining[0] in bobs_keys, "the key left is not the X session's"

    window.sign_out()
    window.wait_for_text("Sign In to Turnkey")
    assert turnkey_session.turnkey_items(SESSIONS) == [] and turnkey_session.turnkey_items(KEYS) == [], \
        "sign-out left a session or key in the keyring"


def test_a_session_turnkey_ended_shows_the_session_ended_page(turnkey_session, emulator):
    window = turnkey_session.launch()
    sign_in(turnkey_session, window, "apple")
    turnkey_session.quit_app()
    # Turnkey's clock passes the session's expiry (this computer's clock has not yet).
    emulator.admin("clock", {"advanceSeconds": 901})
    window = turnkey_session.launch()
    window.wait_for("alert", name="Session Ended")
    assert window.has_text("Your session has ended. Sign in again to continue.")
    assert turnkey_session.turnkey_items(SESSIONS) == [] and turnkey_session.turnkey_items(KEYS) == []


def test_the_waiting_page_opens_again_and_takes_a_pasted_x_redirect(turnkey_session, emulator):
    # A browser that keeps custom schemes to itself: the person pastes the address it ended on.
    saved = turnkey_session.root / "address-bar.txt"
    turnkey_session.browse(action="hold")
    window = turnkey_session.launch()
    window.click("Continue with X")
    window.wait_for_text("Continue in Your Browser")
    for name in ("Open Again", "Copy Link", "Cancel"):
        window.wait_for("push button", name=name)
    desktop.wait_until(lambda: turnkey_session.browser_events("opened"), what="the browser to open")

    # Open Again opens the same sign-in (same state and key) in the browser, which now finishes it.
    turnkey_session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    window.click("Open Again")
    desktop.wait_until(lambda: turnkey_session.browser_events("saved"), what="the browser to reach the redirect")
    assert [e["path"] for e in turnkey_session.browser_events("opened")] == ["/idp/x/authorize"] * 2
    assert len(turnkey_session.turnkey_items(PENDING)) == 1, "Open Again started a second sign-in"

    window.type_into("Redirect link from the browser", turnkey_session.take_saved(saved))
    window.click("Continue")
    window.wait_for_text("You’re Signed In")
    assert detail(window, "Signed in with") == "X"
    assert statuses(emulator, f"{AUTH_PROXY}/oauth2_authenticate") == [200]
    assert_one_stored_session(turnkey_session, emulator)


def test_cancelling_at_discord_says_so_and_keeps_nothing(turnkey_session, emulator):
    turnkey_session.browse(email="alice@example.com", action="cancel")
    window = turnkey_session.launch()
    window.click("Continue with Discord")
    window.wait_for("label", name="Sign-in cancelled in the browser")   # a toast, not an alarm
    assert window.has_text("Sign In to Turnkey")
    assert [e["has_error"] for e in turnkey_session.browser_events("delivered")] == [True]
    assert emulator.requests("POST", f"{AUTH_PROXY}/oauth2_authenticate") == [], "a cancelled sign-in reached Turnkey"
    assert turnkey_session.turnkey_items(PENDING) == [] and turnkey_session.turnkey_items(KEYS) == [], \
        "the cancelled sign-in's record or key stayed in the keyring"
