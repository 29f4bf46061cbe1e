"""The app as a Flatpak runs it, reproduced: inside bwrap with a /.flatpak-info for its app ID, on
the session bus, beside a real xdg-desktop-portal. The browser opens through the OpenURI portal,
the redirect reaches the sandboxed app over D-Bus, and the session lands in the app's own keyring
file (libsecret's file backend, keyed by the Secret portal through gnome-keyring's portal
backend), never in the login collection.

Not collected by Tests/ui/run (the file name does not start with test_): with bookworm's libsecret
0.20.5 a Secret portal retrieval sometimes never answers, most often for the app's restore at
start (test_the_session_is_restored_inside_the_sandbox_after_a_restart reproduces it), so it
cannot pass reliably in CI yet. libsecret 0.20.5 subscribes to the portal's Response signal only
in the callback of RetrieveSecret's reply, on the calling thread's main context, and GDBus drops
a signal nobody is subscribed to yet (docs/PACKAGING.md has what was tried). Run it by hand:

    Tests/ui/run Tests/ui/flatpak_sandbox.py
"""
import os
import subprocess
import time
from pathlib import Path

import pytest

import desktop
import sandbox
from conftest import APP_ID

KEYRING_FILE = Path(".var") / "app" / APP_ID / "data" / "keyrings" / "default.keyring"


def portal_answers(interface):
    """The version the running xdg-desktop-portal gives for `interface`, or None."""
    answer = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop",
                             "--object-path", "/org/freedesktop/portal/desktop",
                             "--method", "org.freedesktop.DBus.Properties.Get", interface, "version"],
                            capture_output=True, text=True, timeout=10)
    return answer.stdout.strip() if answer.returncode == 0 else None


@pytest.fixture
def portal(session, test_logs):
    """xdg-desktop-portal on the session bus, as a GNOME session starts it: OpenURI (with the GTK
    backend's app chooser, never needed with a single default browser) and Secret (gnome-keyring's
    backend). The document portal is left out: it needs a FUSE mount the tests do not use."""
    services = Path(os.environ["XDG_DATA_HOME"]) / "dbus-1" / "services"
    services.mkdir(parents=True, exist_ok=True)
    (services / "org.freedesktop.portal.Documents.service").write_text(
        "[D-BUS Service]\nName=org.freedesktop.portal.Documents\nExec=/bin/false\n")
    # What the portal starts inherits its environment: the browser logs this marker.
    env = dict(session.env, XDG_CURRENT_DESKTOP="GNOME", PORTAL_TEST_LAUNCHER="xdg-desktop-portal")
    with open(test_logs / "xdg-desktop-portal.log", "w") as log:
        process = subprocess.Popen(["/usr/libexec/xdg-desktop-portal", "--replace"], env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        desktop.wait_until(lambda: portal_answers("org.freedesktop.portal.OpenURI")
                           and portal_answers("org.freedesktop.portal.Secret"),
                           timeout=30, what="xdg-desktop-portal to offer OpenURI and Secret")
        yield process
    finally:
        process.terminate()
        process.wait(timeout=10)
        (services / "org.freedesktop.portal.Documents.service").unlink()


@pytest.fixture
def sandboxed(session, tmp_path):
    """(wrapper, env) to run a command as the sandboxed app, and a helper running secret-tool there."""
    info = tmp_path / "flatpak-info"
    info.write_text(sandbox.flatpak_info(APP_ID, "1234567890"))
    env = dict(session.env)
    wrapper = sandbox.command(info, APP_ID, [], env)
    extra = {name: env[name] for name in (*sandbox.app_dirs(env["HOME"], APP_ID), "FLATPAK_ID")}
    return wrapper, extra


def sandbox_lookup(wrapper, env, session_key):
    found = subprocess.run([*wrapper, "secret-tool", "lookup", "--", "auth-environment-id", "local-dev",
                            "session-key", session_key], env=env, capture_output=True, text=True, timeout=30)
    return found.stdout if found.returncode == 0 else None


def test_sign_in_inside_the_sandbox_uses_the_portals_and_the_apps_own_keyring(session, emulator, portal, sandboxed):
    wrapper, extra = sandboxed
    session.browse(email="alice@example.com", action="continue")
    window = session.launch(wrapper=wrapper, **extra)
    window.click("Continue with Google")
    window.wait_for_text("You're signed in")

    # The browser was started by xdg-desktop-portal (OpenURI), outside the sandbox.
    opened = session.browser_events("opened")
    assert len(opened) == 1, f"the browser opened {len(opened)} times"
    assert opened[0]["launched_by"] == "xdg-desktop-portal", "the browser was not started by the portal"
    assert opened[0]["sandboxed"] is False
    # The redirect went to the sandboxed app, which exchanged it once.
    assert [e["exit_status"] for e in session.browser_events("delivered")] == [0]
    assert len(emulator.requests("POST", "/api/v3/auth/oauth/tokens")) == 1

    # The session is in the app's keyring file, readable only as the app (the file backend's key
    # comes from the Secret portal for this app ID); the login collection does not have it.
    keyring = Path(session.env["HOME"]) / KEYRING_FILE
    assert keyring.is_file(), "no keyring file under ~/.var/app/…/data/keyrings"
    env = dict(session.env, **extra)
    stored = sandbox_lookup(wrapper, env, session.env["PORTAL_SESSION_KEY"])
    assert stored, "the app's keyring file does not hold the session"
    assert stored.encode() not in keyring.read_bytes(), "the session is stored unencrypted"
    assert session.stored_session() is None, "the session is in the login collection"


def test_the_session_is_restored_inside_the_sandbox_after_a_restart(session, emulator, portal, sandboxed):
    wrapper, extra = sandboxed
    session.browse(email="alice@example.com", action="continue")
    window = session.launch(wrapper=wrapper, **extra)
    window.click("Continue with Google")
    window.wait_for_text("You're signed in")
    session.quit_app()

    # A new process opens the keyring file again, with the key the portal hands it at start.
    window = session.launch(wrapper=wrapper, **extra)
    window.wait_for_text("You're signed in", timeout=45)
    assert len(emulator.requests("GET", "/api/v3/clients/me")) >= 1, "the restored session was not checked with Portal"
    assert len(emulator.requests("POST", "/api/v3/auth/oauth/tokens")) == 1, "the restart signed in again"
    window.click("Sign Out")
    window.wait_for_text("Sign in to Portal")
    env = dict(session.env, **extra)
    assert sandbox_lookup(wrapper, env, session.env["PORTAL_SESSION_KEY"]) is None, "signing out left the session in the file"


def test_the_secret_portal_keys_each_app_apart(session, portal, sandboxed, tmp_path):
    """What the sandboxed app stores, another app ID cannot read (its own key from the portal), and
    the host (the login collection) does not see it either."""
    wrapper, extra = sandboxed
    env = dict(session.env, **extra)
    stored = subprocess.run([*wrapper, "secret-tool", "store", "--label", "sandbox check", "sandbox-check", "1"],
                            env=env, input="kept-apart", capture_output=True, text=True, timeout=30)
    assert stored.returncode == 0, stored.stderr
    found = subprocess.run([*wrapper, "secret-tool", "lookup", "sandbox-check", "1"], env=env,
                           capture_output=True, text=True, timeout=30)
    assert found.stdout == "kept-apart"

    other_info = tmp_path / "other-flatpak-info"
    other_info.write_text(sandbox.flatpak_info("org.example.Other", "987654321"))
    other_env = dict(session.env)
    other = sandbox.command(other_info, "org.example.Other", [], other_env)
    # The other app's file is its own; even handed this app's keyring file, its key does not open it.
    other_dir = Path(other_env["XDG_DATA_HOME"]) / "keyrings"
    other_dir.mkdir(parents=True, exist_ok=True)
    (other_dir / "default.keyring").write_bytes((Path(session.env["HOME"]) / KEYRING_FILE).read_bytes())
    found = subprocess.run([*other, "secret-tool", "lookup", "sandbox-check", "1"], env=other_env,
                           capture_output=True, text=True, timeout=30)
    assert found.stdout != "kept-apart", "another app's portal key opened this app's keyring file"
    outside = subprocess.run(["secret-tool", "lookup", "sandbox-check", "1"], capture_output=True, text=True)
    assert outside.stdout == "", "the host's login collection holds the sandboxed app's secret"
