"""KDE's kwalletd5 as the only Secret Service (no gnome-keyring on the bus), its wallet opened at
login as pam_kwallet5 opens it: the app and the CLI store, restore and delete Portal sessions,
Turnkey sessions and Turnkey keys there (Tests/secret_service/any_secret_service.py), read back with
secret-tool, and what they store is in the wallet as KWallet itself lists it. A closed wallet asks
through kwalletd5's own password dialog: opened, the session is restored; cancelled, the app says
the keyring stayed locked at once and spends no grant."""
import time

import desktop
import kwallet
from any_secret_service import *  # noqa: F401,F403  (what every Secret Service must do, run here)


def session_entries(session_key):
    return [name for names in kwallet.entries().values() for name in names if session_key in name]


def test_the_wallet_itself_lists_the_session_while_signed_in_and_not_after(session, emulator):
    key = session.env["PORTAL_SESSION_KEY"]
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    desktop.wait_until(lambda: session_entries(key), timeout=20, what="the session in the wallet's own list")
    assert session_entries(key) == [f"Portal Sign-In session (local-dev, {key})"], kwallet.entries()
    window.sign_out()
    window.wait_for_text("Sign In to Portal")
    assert session_entries(key) == [], "the wallet still lists the session after signing out"
    assert session.stored_session() is None


TOKENS = "/api/v3/auth/oauth/tokens"
# libsecret gives up on a D-Bus call after 25 s: an answer later than this came from a timeout.
PROMPT_ANSWERED_WITHIN = 15


def test_a_closed_wallet_asks_through_kwallets_dialog_and_the_person_opens_it(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    stored = session.stored_session()
    session.quit_app()

    kwallet.lock()
    window = session.launch()
    kwallet.answer_unlock_dialog(accept=True)
    window.wait_for_text("You’re Signed In", timeout=40)
    assert not kwallet.is_locked()
    assert session.stored_session() == stored


def test_a_cancelled_wallet_dialog_at_sign_in_spends_no_grant_and_try_again_signs_in(session, emulator):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    kwallet.lock()
    window.click("Continue with Google")
    kwallet.answer_unlock_dialog(accept=False)
    cancelled = time.monotonic()
    said = window.wait_for("label", contains="stayed locked", timeout=30).name
    assert time.monotonic() - cancelled < PROMPT_ANSWERED_WITHIN, "the cancelled dialog was reported only after a timeout"
    time.sleep(2)
    assert kwallet.unlock_dialog_showing() is None, "kwalletd5's dialog came back without being asked for"
    # The redirect came back, but its grant was never sent: no session at Portal that nobody holds.
    assert [e["exit_status"] for e in session.browser_events("delivered")] == [0]
    assert emulator.requests("POST", TOKENS) == [], "the grant was spent although the wallet stayed closed"
    assert kwallet.is_locked(), "a cancelled dialog leaves the wallet closed"
    assert "unlock it when it asks" in said, said

    window.click("Try Again")
    kwallet.answer_unlock_dialog(accept=True)
    window.wait_for_text("You’re Signed In", timeout=40)
    assert len(emulator.requests("POST", TOKENS)) == 1
    assert session.stored_session(), "the session is not in KWallet"
