"""KDE's kwalletd5 as the only Secret Service (no gnome-keyring on the bus), its wallet opened at
login as pam_kwallet5 opens it: the app and the CLI store, restore and delete Portal sessions,
Turnkey sessions and Turnkey keys there (Tests/secret_service/any_secret_service.py), read back with
secret-tool, and what they store is in the wallet as KWallet itself lists it."""
import desktop
import kwallet
from any_secret_service import *  # noqa: F401,F403  (what every Secret Service must do, run here)


def session_entries(session_key):
    return [name for names in kwallet.entries().values() for name in names if session_key in name]


def test_the_wallet_itself_lists_the_session_while_signed_in_and_not_after(session, emulator):
    key = session.env["PORTAL_SESSION_KEY"]
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text("You're signed in")
    desktop.wait_until(lambda: session_entries(key), timeout=20, what="the session in the wallet's own list")
    assert session_entries(key) == [f"Portal Sign-In session (local-dev, {key})"], kwallet.entries()
    window.click("Sign Out")
    window.wait_for_text("Sign in to Portal")
    assert session_entries(key) == [], "the wallet still lists the session after signing out"
    assert session.stored_session() is None
