"""The app as a Flatpak runs it, reproduced: inside bwrap with a /.flatpak-info for its app ID, on
the session bus, beside a real xdg-desktop-portal. The browser opens through the OpenURI portal,
the redirect reaches the sandboxed app over D-Bus, and the session lands in the app's own keyring
file (libsecret's file backend, keyed by the Secret portal through gnome-keyring's portal
backend), never in the login collection.

Tests/sandbox/run runs these on the stack a Flatpak gets (in script/test-trixie's root where the
host's libsecret is older than 0.21: bookworm's 0.20.5 subscribes to the Secret portal's Response
only after RetrieveSecret's reply, and loses an answer that comes first).
"""
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pyatspi
import pytest

import desktop
import sandbox
from ui_fixtures import APP_ID

PORTAL_BACKENDS = Path("/usr/share/xdg-desktop-portal/portals")
KEYRING_FILE = Path(".var") / "app" / APP_ID / "data" / "keyrings" / "default.keyring"


def portal_answers(interface):
    """The version the running xdg-desktop-portal gives for `interface`, or None."""
    answer = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop",
                             "--object-path", "/org/freedesktop/portal/desktop",
                             "--method", "org.freedesktop.DBus.Properties.Get", interface, "version"],
                            capture_output=True, text=True, timeout=10)
    return answer.stdout.strip() if answer.returncode == 0 else None


def start_portal(session, test_logs, wanted, portal_dir=None):
    """xdg-desktop-portal on the session bus, once it offers every interface in `wanted`; with
    `portal_dir`, only the backends (.portal files) found there."""
    # What the portal starts inherits its environment: the browser logs this marker.
    env = dict(session.env, XDG_CURRENT_DESKTOP="GNOME", PORTAL_TEST_LAUNCHER="xdg-desktop-portal")
    if portal_dir is not None:
        env["XDG_DESKTOP_PORTAL_DIR"] = str(portal_dir)
    with open(test_logs / "xdg-desktop-portal.log", "a") as log:
        process = subprocess.Popen(["/usr/libexec/xdg-desktop-portal", "--replace"], env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        desktop.wait_until(lambda: all(portal_answers(f"org.freedesktop.portal.{name}") for name in wanted),
                           timeout=30, what=f"xdg-desktop-portal to offer {' and '.join(wanted)}")
    except AssertionError:
        process.terminate()
        process.wait(timeout=10)
        raise
    return process


def stop_portal(process):
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture
def portal(session, test_logs):
    """xdg-desktop-portal as a GNOME session starts it: OpenURI (with the GTK backend's app chooser,
    never needed with a single default browser) and Secret (gnome-keyring's backend). The document
    portal is the distribution's own; its FUSE mount may fail here, which the portal only warns
    about (the tests share no files)."""
    process = start_portal(session, test_logs, ("OpenURI", "Secret"))
    yield process
    stop_portal(process)


@pytest.fixture
def portal_without_openuri(session, test_logs, tmp_path):
    """xdg-desktop-portal with gnome-keyring's backend only, as on a desktop that installs no GTK (or
    other) portal backend: since xdg-desktop-portal 1.18 it then offers no OpenURI at all."""
    process = start_portal(session, test_logs, ("Secret",), portal_dir=only_backend(tmp_path, "gnome-keyring"))
    yield process
    stop_portal(process)


def only_backend(tmp_path, backend):
    """A portal directory holding only `backend`'s .portal file."""
    backends = tmp_path / f"only-{backend}"
    backends.mkdir()
    shutil.copy(PORTAL_BACKENDS / f"{backend}.portal", backends)
    return backends


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


def open_uri_parents(session):
    """Starts recording the OpenURI calls on the session bus; the function returned stops it and gives
    each call's parent_window (the URIs, which carry a sign-in's state, are not kept)."""
    monitor = subprocess.Popen(["dbus-monitor", "--session",
                                "type='method_call',interface='org.freedesktop.portal.OpenURI',member='OpenURI'"],
                               env=session.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    time.sleep(1)  # dbus-monitor has become a monitor

    def parents():
        monitor.terminate()
        lines = monitor.communicate(timeout=10)[0].splitlines()
        return [lines[index + 1].strip().removeprefix('string "').removesuffix('"')
                for index, line in enumerate(lines) if "member=OpenURI" in line and index + 1 < len(lines)]
    return parents


def test_sign_in_inside_the_sandbox_uses_the_portals_and_the_apps_own_keyring(session, emulator, portal, sandboxed):
    wrapper, extra = sandboxed
    session.browse(email="alice@example.com", action="continue")
    window = session.launch(wrapper=wrapper, **extra)
    parents = open_uri_parents(session)
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    # The portal's request names the app's window as its parent (the window the sign-in started from).
    assert [re.fullmatch(r"x11:[0-9a-f]+", parent) is not None for parent in parents()] == [True], \
        "the OpenURI request did not name the app's window as its parent"

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
    window.wait_for_text("You’re Signed In")
    session.quit_app()

    # A new process opens the keyring file again, with the key the portal hands it at start.
    window = session.launch(wrapper=wrapper, **extra)
    window.wait_for_text("You’re Signed In", timeout=45)
    assert len(emulator.requests("GET", "/api/v3/clients/me")) >= 1, "the restored session was not checked with Portal"
    assert len(emulator.requests("POST", "/api/v3/auth/oauth/tokens")) == 1, "the restart signed in again"
    window.sign_out()
    window.wait_for_text("Sign In to Portal")
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


def test_a_portal_without_openuri_is_said_and_nothing_is_spent(session, emulator, portal_without_openuri, sandboxed):
    """The browser cannot be opened from the sandbox: the app says so and stays up, nothing reaches
    Portal, no browser starts, and the button can be pressed again."""
    assert portal_answers("org.freedesktop.portal.OpenURI") is None, "this portal offers OpenURI after all"
    wrapper, extra = sandboxed
    window = session.launch(wrapper=wrapper, **extra)
    window.click("Continue with Google")
    window.wait_for("label", contains="Your web browser could not be opened")
    assert session.browser_events("opened") == [], "a browser opened"
    assert emulator.requests("POST", "/api/v3/auth/oauth/tokens") == []
    assert window.wait_for("push button", name="Try Again") is not None
    assert session.processes[-1].poll() is None, "the app is gone"


def sensitive(window, name):
    button = window.wait_for("push button", name=name)
    return button.getState().contains(pyatspi.STATE_SENSITIVE)


def test_without_a_secret_portal_sign_in_waits_until_one_starts(session, emulator, sandboxed, test_logs, tmp_path):
    """In the sandbox the keyring is the Secret portal: with a portal that offers none, the sign-in
    buttons wait under advice that says so and nothing is sent; once a portal with a Secret backend
    takes over, the app wakes by itself and the session lands in the app's keyring file."""
    first = start_portal(session, test_logs, ("OpenURI",), portal_dir=only_backend(tmp_path, "gtk"))
    try:
        assert portal_answers("org.freedesktop.portal.Secret") is None, "this portal offers Secret after all"
        wrapper, extra = sandboxed
        window = session.launch(wrapper=wrapper, **extra)
        # A page of its own, announced (an alert), that says what to install; no sign-in is offered.
        window.wait_for("alert", name="No Keyring")
        said = window.wait_for("label", contains="No keyring is there to keep your session").name
        assert "Secret portal" in said and "GNOME Keyring" in said, said
        assert window.find("push button", name="Continue with Google") is None, \
            "a sign-in could start without a Secret portal"
        assert emulator.requests("GET", "/api/v3/auth/oauth/urls") == [], "a sign-in request went out without a keyring"

        # A portal with gnome-keyring's backend replaces it: the app sees the portal's bus name
        # change hands, asks again, and lets sign-in go on.
        second = start_portal(session, test_logs, ("OpenURI", "Secret"))
    finally:
        stop_portal(first)
    try:
        window.wait_for("push button", name="Continue with Google", timeout=20)
        desktop.wait_until(lambda: sensitive(window, "Continue with Google"), timeout=20,
                           what="the sign-in buttons to wake once the Secret portal is there")
        session.browse(email="alice@example.com", action="continue")
        window.click("Continue with Google")
        window.wait_for_text("You’re Signed In")
        assert len(emulator.requests("POST", "/api/v3/auth/oauth/tokens")) == 1
        assert sandbox_lookup(wrapper, dict(session.env, **extra), session.env["PORTAL_SESSION_KEY"]), \
            "the app's keyring file does not hold the session"
    finally:
        stop_portal(second)
