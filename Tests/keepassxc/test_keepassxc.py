"""KeePassXC as the only Secret Service (no gnome-keyring on the bus): the app and the CLI store,
restore and delete Portal sessions, Turnkey sessions and Turnkey keys there; KeePassXC's extra
attributes do not confuse the lookups, and what it moves to its recycle bin on deletion is never
restored. Items are read back with secret-tool; what reached the database file with keepassxc-cli."""
import json
import subprocess
import uuid

import desktop
import keepassxc
from conftest import FAKE_BROWSER

SIGN_IN = "Sign in to Portal"
SIGNED_IN = "You're signed in"
SESSIONS = "io.github.portalauth.TurnkeySession"
KEYS = "io.github.portalauth.TurnkeyKey"
CLIENT = "/api/v3/clients/me"


def test_the_only_secret_service_is_keepassxc():
    owner = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                            "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                            "org.freedesktop.secrets"], capture_output=True, text=True, check=True).stdout
    pid = owner.strip().strip("(),").split()[-1]
    assert open(f"/proc/{pid}/comm").read().strip() == "keepassxc"


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
    window.click("Sign Out")
    window.wait_for_text(SIGN_IN)
    assert session.stored_session() is None, "the session is still found after signing out"
    # KeePassXC keeps what was deleted in its recycle bin; no lookup of ours may find it there.
    desktop.wait_until(lambda: keepassxc.recycled(), timeout=20, what="KeePassXC to move the session to its recycle bin")
    session.quit_app()

    window = session.launch()
    window.wait_for_text(SIGN_IN)
    assert window.find("label", name=SIGNED_IN) is None, "a session from the recycle bin was restored"


def cli(session, *arguments, input=None):
    run = subprocess.run([str(session.prefix / "bin" / "portal-auth"), *arguments], env=session.env, input=input,
                         capture_output=True, text=True, timeout=60)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    return run.returncode, (lines[-1] if lines else {})


def browse_to_redirect(session, authorize_url, email="alice@example.com"):
    """The browser signs in at the provider and keeps the redirect (a grant) in a file, read once."""
    saved = session.root / f"redirect-{uuid.uuid4().hex[:8]}.txt"
    session.browse(email=email, action="continue", save_to=str(saved))
    subprocess.run(["/usr/bin/python3", str(FAKE_BROWSER), authorize_url], env=session.env, check=True, timeout=60)
    return session.take_saved(saved).strip()


def test_the_cli_signs_in_restores_and_signs_out(session, emulator):
    status, login = cli(session, "login-url", "google")
    assert status == 0
    redirect = browse_to_redirect(session, login["authorizeUrl"])
    status, signed_in = cli(session, "handle-redirect", "-", input=redirect + "\n")
    assert status == 0 and signed_in.get("result") == "authenticated", signed_in.get("error")
    assert session.stored_session(), "the session is not in KeePassXC"

    # Another process (a restart) reads it back.
    status, restored = cli(session, "session")
    assert status == 0 and restored["session"]["endUserId"] == signed_in["endUserId"]
    status, signed_out = cli(session, "sign-out")
    assert status == 0 and signed_out == {"signedOut": True}
    assert session.stored_session() is None
    status, after = cli(session, "session")
    assert status == 0 and after["session"] is None, "a signed-out session came back from the recycle bin"


def test_the_app_keeps_turnkey_sessions_and_keys_in_keepassxc(turnkey_session, emulator):
    window = turnkey_session.launch()
    window.wait_for_text("Sign in to Turnkey")
    window.click("Continue with Discord")
    window.wait_for_text(SIGNED_IN)
    keys = turnkey_session.turnkey_items(KEYS)
    assert [item.get("session-key") for item in turnkey_session.turnkey_items(SESSIONS)] == ["default"]
    assert len(keys) == 1
    live = {s["publicKey"] for s in emulator.admin("turnkey")["sessions"]}
    assert keys[0]["public-key"] in live, "the key in KeePassXC is not the live session's"
    turnkey_session.quit_app()

    window = turnkey_session.launch()
    window.wait_for_text(SIGNED_IN)
    window.click("Sign Out")
    window.wait_for_text("Sign in to Turnkey")
    assert turnkey_session.turnkey_items(SESSIONS) == [] and turnkey_session.turnkey_items(KEYS) == [], \
        "the session or its key is still found after signing out"
    turnkey_session.quit_app()
    window = turnkey_session.launch()
    window.wait_for_text("Sign in to Turnkey")
    assert window.find("label", name=SIGNED_IN) is None, "a Turnkey session from the recycle bin was restored"


def test_the_turnkey_cli_signs_in_restores_and_signs_out(turnkey_session, emulator):
    status, login = cli(turnkey_session, "turnkey", "login-url", "discord")
    assert status == 0, login
    assert len(turnkey_session.turnkey_items(KEYS)) == 1, "login-url kept no key in KeePassXC"
    redirect = browse_to_redirect(turnkey_session, login["authorizeUrl"])
    status, signed_in = cli(turnkey_session, "turnkey", "handle-redirect", "-", input=redirect + "\n")
    assert status == 0, signed_in.get("error")
    assert [item.get("session-key") for item in turnkey_session.turnkey_items(SESSIONS)] == ["default"]
    status, restored = cli(turnkey_session, "turnkey", "session")
    assert status == 0 and restored.get("session"), restored.get("error")
    status, _ = cli(turnkey_session, "turnkey", "sign-out")
    assert status == 0
    assert turnkey_session.turnkey_items(SESSIONS) == [] and turnkey_session.turnkey_items(KEYS) == []
    status, after = cli(turnkey_session, "turnkey", "session")
    assert status == 0 and after.get("session") is None


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
