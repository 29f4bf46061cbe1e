"""What the app and the CLI must do with whichever Secret Service is the only one on the bus
(script/with-keepassxc, script/with-kwallet): store, restore and delete Portal sessions, Turnkey
sessions and Turnkey keys, read back with secret-tool. A suite imports these tests
(`from any_secret_service import *`) next to the ones about its own service; its environment names
the service (PORTAL_SECRET_SERVICE) and the program that must own org.freedesktop.secrets
(PORTAL_SECRET_SERVICE_PROGRAM)."""
import json
import os
import subprocess
import uuid

from ui_fixtures import FAKE_BROWSER

__all__ = ["test_the_only_secret_service_is_the_one_under_test",
           "test_the_app_signs_in_restores_and_signs_out", "test_the_cli_signs_in_restores_and_signs_out",
           "test_the_app_keeps_turnkey_sessions_and_keys", "test_the_turnkey_cli_signs_in_restores_and_signs_out"]

SERVICE = os.environ.get("PORTAL_SECRET_SERVICE", "")
SIGN_IN = "Sign In to Portal"
SIGNED_IN = "You’re Signed In"
SESSIONS = "io.github.portalauth.TurnkeySession"
KEYS = "io.github.portalauth.TurnkeyKey"
CLIENT = "/api/v3/clients/me"


def cli(session, *arguments, input=None):
    """(exit status, last JSON line) of `portal-auth ARGUMENTS`; what it said on stderr (its debug
    lines) goes to the test's log folder, cli-N.log."""
    run = subprocess.run([str(session.prefix / "bin" / "portal-auth"), *arguments], env=session.env, input=input,
                         capture_output=True, text=True, timeout=60)
    logged = len(list(session.logs.glob("cli-*.log")))
    (session.logs / f"cli-{logged}.log").write_text(f"portal-auth {' '.join(arguments)}: exit {run.returncode}\n{run.stderr}")
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    return run.returncode, (lines[-1] if lines else {})


def browse_to_redirect(session, authorize_url, email="alice@example.com"):
    """The browser signs in at the provider and keeps the redirect (a grant) in a file, read once."""
    saved = session.root / f"redirect-{uuid.uuid4().hex[:8]}.txt"
    session.browse(email=email, action="continue", save_to=str(saved))
    subprocess.run(["/usr/bin/python3", str(FAKE_BROWSER), authorize_url], env=session.env, check=True, timeout=60)
    return session.take_saved(saved).strip()


def test_the_only_secret_service_is_the_one_under_test():
    owner = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                            "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                            "org.freedesktop.secrets"], capture_output=True, text=True, check=True).stdout
    pid = owner.strip().strip("(),").split()[-1]
    assert open(f"/proc/{pid}/comm").read().strip() == os.environ["PORTAL_SECRET_SERVICE_PROGRAM"]


def test_the_app_signs_in_restores_and_signs_out(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text(SIGNED_IN)
    assert session.stored_session(), f"the session is not in {SERVICE}"
    session.quit_app()

    window = session.launch()
    window.wait_for_text(SIGNED_IN)
    assert len(emulator.requests("GET", CLIENT)) >= 1, "the restored session was not checked with Portal"
    window.sign_out()
    window.wait_for_text(SIGN_IN)
    assert session.stored_session() is None, "the session is still found after signing out"
    session.quit_app()

    window = session.launch()
    window.wait_for_text(SIGN_IN)
    assert window.find("label", name=SIGNED_IN) is None, "a signed-out session was restored"


def test_the_cli_signs_in_restores_and_signs_out(session, emulator):
    status, login = cli(session, "login-url", "google")
    assert status == 0
    redirect = browse_to_redirect(session, login["authorizeUrl"])
    status, signed_in = cli(session, "handle-redirect", "-", input=redirect + "\n")
    assert status == 0 and signed_in.get("result") == "authenticated", signed_in.get("error")
    assert session.stored_session(), f"the session is not in {SERVICE}"

    # Another process (a restart) reads it back.
    status, restored = cli(session, "session")
    assert status == 0 and restored["session"]["endUserId"] == signed_in["endUserId"]
    status, signed_out = cli(session, "sign-out")
    assert status == 0 and signed_out == {"signedOut": True}
    assert session.stored_session() is None
    status, after = cli(session, "session")
    assert status == 0 and after["session"] is None, "a signed-out session came back"


def test_the_app_keeps_turnkey_sessions_and_keys(turnkey_session, emulator):
    window = turnkey_session.launch()
    window.wait_for_text("Sign In to Turnkey")
    window.click("Continue with Discord")
    window.wait_for_text(SIGNED_IN)
    keys = turnkey_session.turnkey_items(KEYS)
    assert [item.get("session-key") for item in turnkey_session.turnkey_items(SESSIONS)] == ["default"]
    assert len(keys) == 1
    live = {s["publicKey"] for s in emulator.admin("turnkey")["sessions"]}
    assert keys[0]["public-key"] in live, f"the key in {SERVICE} is not the live session's"
    turnkey_session.quit_app()

    window = turnkey_session.launch()
    window.wait_for_text(SIGNED_IN)
    window.sign_out()
    window.wait_for_text("Sign In to Turnkey")
    assert turnkey_session.turnkey_items(SESSIONS) == [] and turnkey_session.turnkey_items(KEYS) == [], \
        "the session or its key is still found after signing out"
    turnkey_session.quit_app()
    window = turnkey_session.launch()
    window.wait_for_text("Sign In to Turnkey")
    assert window.find("label", name=SIGNED_IN) is None, "a signed-out Turnkey session was restored"


def test_the_turnkey_cli_signs_in_restores_and_signs_out(turnkey_session, emulator):
    status, login = cli(turnkey_session, "turnkey", "login-url", "discord")
    assert status == 0, login
    assert len(turnkey_session.turnkey_items(KEYS)) == 1, f"login-url kept no key in {SERVICE}"
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
