"""KeePassXC as the only Secret Service (no gnome-keyring on the bus): the app and the CLI store,
restore and delete Portal sessions, Turnkey sessions and Turnkey keys there (the tests of
Tests/secret_service/any_secret_service.py); KeePassXC's extra attributes do not confuse the
lookups, and what it moves to its recycle bin on deletion is never restored. A locked database
asks through KeePassXC's own dialog, once: dismissed, the app and the CLI say the keyring stayed
locked at once, spend no grant and write nothing. Items are read back with secret-tool; what
reached the database file with keepassxc-cli."""
import json
import subprocess
import time

import desktop
import keepassxc
from any_secret_service import *  # noqa: F401,F403  (what every Secret Service must do, run here too)
from any_secret_service import browse_to_redirect, cli

SIGN_IN = "Sign In to Portal"
SIGNED_IN = "You’re Signed In"
CLIENT = "/api/v3/clients/me"
TOKENS = "/api/v3/auth/oauth/tokens"
STAYED_LOCKED = "stayed locked"
# libsecret gives up on a D-Bus call after 25 s: an answer later than this came from a timeout.
PROMPT_ANSWERED_WITHIN = 15


def test_the_app_signs_in_restores_and_signs_out_and_the_recycled_session_stays_gone(session, emulator):
    window = session.launch()
    window.wait_for_text(SIGN_IN)
    window.click("Continue with Google")
    window.wait_for_text(SIGNED_IN)
    stored = session.stored_session()
    assert stored, "the session is not in KeePassXC"
    desktop.wait_until(lambda: "Portal Sign-In session" in " ".join(keepassxc.entries()), timeout=20,
                       what="KeePassXC to save the session into its database file")
    session.quit_app()

    window = session.launch()
    window.wait_for_text(SIGNED_IN)
    assert len(emulator.requests("GET", CLIENT)) >= 1, "the restored session was not checked with Portal"
    window.sign_out()
    window.wait_for_text(SIGN_IN)
    assert session.stored_session() is None, "the session is still found after signing out"
    # KeePassXC keeps what was deleted in its recycle bin; no lookup of ours may find it there.
    desktop.wait_until(lambda: keepassxc.recycled(), timeout=20, what="KeePassXC to move the session to its recycle bin")
    session.quit_app()

    window = session.launch()
    window.wait_for_text(SIGN_IN)
    assert window.find("label", name=SIGNED_IN) is None, "a session from the recycle bin was restored"


def test_a_locked_database_asks_through_keepassxc_and_the_person_unlocks_it(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text(SIGNED_IN)
    stored = session.stored_session()
    session.quit_app()

    keepassxc.lock()
    window = session.launch()
    keepassxc.answer_unlock_dialog(accept=True)
    window.wait_for_text(SIGNED_IN, timeout=40)
    assert not keepassxc.is_locked()
    assert session.stored_session() == stored


def banner(window, words, timeout=30):
    """The error banner's text once it says `words`; on a timeout, what the window showed instead."""
    try:
        return window.wait_for("label", contains=words, timeout=timeout).name
    except AssertionError as error:
        raise AssertionError(f"{error}; the window shows {window.labels()}") from None


def no_second_dialog():
    """The dismissed dialog is not raised again by the app on its own (each search would raise it)."""
    time.sleep(2)
    assert keepassxc.unlock_dialog_showing() is None, "KeePassXC's unlock dialog came back without being asked for"


def test_a_dismissed_unlock_at_start_says_the_keyring_stayed_locked_and_try_again_asks_again(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text(SIGNED_IN)
    stored = session.stored_session()
    session.quit_app()
    checks_before = len(emulator.requests("GET", CLIENT))   # the signed-in page's own lookup

    keepassxc.lock()
    window = session.launch()
    keepassxc.answer_unlock_dialog(accept=False)
    dismissed = time.monotonic()
    said = banner(window, STAYED_LOCKED, timeout=30)
    assert time.monotonic() - dismissed < PROMPT_ANSWERED_WITHIN, "the dismissed dialog was reported only after a timeout"
    no_second_dialog()
    assert window.find("label", name=SIGNED_IN) is None
    assert keepassxc.is_locked() and keepassxc.entries(), "the database was closed or emptied"
    assert len(emulator.requests("GET", CLIENT)) == checks_before, "no session was read, so none may be checked"

    window.click("Unlock")
    keepassxc.answer_unlock_dialog(accept=True)
    window.wait_for_text(SIGNED_IN, timeout=40)
    assert session.stored_session() == stored, "the session changed behind the locked database"
    assert "keyring" in said


def test_a_dismissed_unlock_at_sign_in_spends_no_grant_and_try_again_signs_in(session, emulator):
    window = session.launch()
    window.wait_for_text(SIGN_IN)
    keepassxc.lock()
    window.click("Continue with Google")
    keepassxc.answer_unlock_dialog(accept=False)
    dismissed = time.monotonic()
    banner(window, STAYED_LOCKED, timeout=30)
    assert time.monotonic() - dismissed < PROMPT_ANSWERED_WITHIN, "the dismissed dialog was reported only after a timeout"
    no_second_dialog()
    # The redirect came back, but its grant was never sent: no session at Portal that nobody holds.
    assert [e["exit_status"] for e in session.browser_events("delivered")] == [0]
    assert emulator.requests("POST", TOKENS) == [], "the grant was spent although the keyring stayed locked"
    assert keepassxc.is_locked(), "a dismissed dialog leaves the database locked"
    assert session.stored_session() is None and window.find("label", name=SIGNED_IN) is None
    assert session.env["PORTAL_SESSION_KEY"] not in " ".join(keepassxc.entries()), "something was half-saved into the database"

    window.click("Unlock")
    keepassxc.answer_unlock_dialog(accept=True)
    window.wait_for_text(SIGNED_IN, timeout=40)
    assert len(emulator.requests("POST", TOKENS)) == 1
    assert session.stored_session(), "the session is not in KeePassXC"


def test_the_cli_refuses_to_spend_the_grant_when_the_unlock_is_dismissed_and_the_same_redirect_signs_in_later(session, emulator):
    status, login = cli(session, "login-url", "google")
    assert status == 0
    redirect = browse_to_redirect(session, login["authorizeUrl"])
    keepassxc.lock()

    command = [str(session.prefix / "bin" / "portal-auth"), "handle-redirect", "-"]
    refused = subprocess.Popen(command, env=session.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    refused.stdin.write(redirect + "\n")
    refused.stdin.close()
    keepassxc.answer_unlock_dialog(accept=False)
    dismissed = time.monotonic()
    refused.wait(timeout=60)
    assert time.monotonic() - dismissed < PROMPT_ANSWERED_WITHIN, "the dismissed dialog was reported only after a timeout"
    answer = [json.loads(line) for line in refused.stdout.read().splitlines() if line.startswith("{")][-1]
    assert refused.returncode == 6, answer
    assert answer["error"] == "sessionStorageFailure" and STAYED_LOCKED in answer["message"], answer
    assert emulator.requests("POST", TOKENS) == [], "the grant was spent although the keyring stayed locked"
    assert session.stored_session() is None

    # The grant was kept, not spent: once the person unlocks, the same redirect signs in.
    again = subprocess.Popen(command, env=session.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    again.stdin.write(redirect + "\n")
    again.stdin.close()
    keepassxc.answer_unlock_dialog(accept=True)
    again.wait(timeout=60)
    signed_in = [json.loads(line) for line in again.stdout.read().splitlines() if line.startswith("{")][-1]
    assert again.returncode == 0 and signed_in.get("result") == "authenticated", signed_in.get("error")
    assert len(emulator.requests("POST", TOKENS)) == 1
    assert session.stored_session(), "the session is not in KeePassXC"


def test_signing_out_of_a_locked_database_asks_nothing_and_keeps_the_session(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text(SIGNED_IN)
    stored = session.stored_session()
    keepassxc.lock()
    window.sign_out()
    said = banner(window, "You are still signed in", timeout=PROMPT_ANSWERED_WITHIN)
    assert "locked" in said, said
    assert keepassxc.unlock_dialog_showing() is None, "signing out raised KeePassXC's unlock dialog"
    assert window.has_text(SIGNED_IN)
    session.quit_app()
    window = session.launch()
    keepassxc.answer_unlock_dialog(accept=True)
    window.wait_for_text(SIGNED_IN, timeout=40)
    assert session.stored_session() == stored, "the session was removed behind the locked database"
