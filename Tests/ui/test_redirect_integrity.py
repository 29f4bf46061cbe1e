"""Only a sign-in the person started finishes by itself. The redirect scheme is desktop-wide: any page,
mail or app can open io.github.portalauth.signin://…, so anything else waits for their Continue, no grant
sits on a command line, and another app claiming the scheme is pointed out."""
import os
import subprocess
from pathlib import Path

import pytest

import desktop

TOKENS = "/api/v3/auth/oauth/tokens"
CONFIRM = "Finish Signing In?"


def signed_in_end_user(window):
    window.wait_for_text("You’re Signed In")
    return window.detail("End user")


def end_user_id(emulator, email):
    return next(u["endUserId"] for u in emulator.admin("state")["users"] if u["email"] == email)


def exchanges(emulator):
    return [entry["status"] for entry in emulator.requests("POST", TOKENS)]


def command_lines_holding(secret):
    """PIDs whose /proc/PID/cmdline contains `secret` (compared, never printed)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if secret.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def grant_of(redirect):
    return redirect.split("token=", 1)[1].split("&", 1)[0]


@pytest.mark.journey
def test_an_unsolicited_redirect_asks_first_and_sends_nothing_until_continue(session, emulator):
    redirect = session.mint_redirect("alice@example.com")
    window = session.launch()
    window.wait_for_text("Sign In to Portal")

    assert session.gio_open(redirect) == 0
    window.wait_for_text(CONFIRM)
    assert window.find("label", contains="from Google") is not None, "the page does not name the provider"
    assert window.find("label", contains="not started from Portal Sign-In") is not None
    assert window.find("push button", name="Sign In") is not None
    assert window.find("push button", name="Discard Link") is not None
    assert exchanges(emulator) == [], "the grant was sent before the person chose Continue"
    session.screenshot("finish-signing-in")

    window.click("Sign In")
    assert signed_in_end_user(window) == end_user_id(emulator, "alice@example.com")
    assert exchanges(emulator) == [200]


def test_ignore_drops_the_link_and_leaves_the_grant_unspent(session, emulator, prefix):
    redirect = session.mint_redirect("alice@example.com")
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    session.gio_open(redirect)
    window.wait_for_text(CONFIRM)
    window.click("Discard Link")
    window.wait_for_text("Sign In to Portal")
    assert window.find("label", name=CONFIRM) is None
    assert exchanges(emulator) == []

    # The grant is still good: the command-line client, handed the redirect on stdin, exchanges it.
    cli = subprocess.run([str(prefix / "bin" / "portal-auth"), "handle-redirect", "-"], input=redirect,
                         env=dict(session.env, PORTAL_SESSION_KEY="cli-after-ignore"), capture_output=True,
                         text=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    assert '"result":"authenticated"' in cli.stdout
    assert exchanges(emulator) == [200]


def test_cancel_then_finishing_in_the_browser_asks_instead_of_signing_in(session, emulator):
    saved = session.root / "address-bar.txt"
    session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    desktop.wait_until(lambda: session.browser_events("saved"), what="the browser to reach the redirect")
    window.click("Cancel")
    window.wait_for_text("Sign In to Portal")

    # The person finishes in the browser after all: the redirect no longer belongs to a sign-in.
    session.gio_open(session.take_saved(saved))
    window.wait_for_text(CONFIRM)
    assert exchanges(emulator) == []
    assert window.find("label", name="You’re Signed In") is None


def test_a_redirect_while_signed_in_asks_before_replacing_the_account(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    alice = signed_in_end_user(window)

    bob = session.mint_redirect("bob@example.com")
    session.gio_open(bob)
    window.wait_for_text(CONFIRM)
    assert window.find("label", contains=f"replaces the account you are signed in with ({alice})") is not None
    window.click("Discard Link")
    assert signed_in_end_user(window) == alice
    assert exchanges(emulator) == [200], "the second account's grant was sent"


def test_a_stale_error_redirect_is_not_an_alarm(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    signed_in_end_user(window)
    # A provider page left open in the browser, its Continue pressed again.
    session.gio_open("io.github.portalauth.signin://auth/callback?error=oauth_failed")
    window.wait_for("label", name="Sign-in link ignored")   # handled: a passing notice, nothing more
    assert window.find("label", contains="cancelled or refused") is None, "an error banner appeared"
    assert window.has_text("You’re Signed In")


def test_garbage_pasted_while_waiting_shows_why_and_keeps_waiting(session, emulator):
    session.browse(action="hold")
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    window.type_into("Redirect link from the browser", "https://example.com/not-a-sign-in?token=x")
    window.click("Continue")
    window.wait_for("label", contains="not a sign-in link for Portal Sign-In")
    assert window.has_text("Continue in Your Browser"), "the waiting page was left"
    assert exchanges(emulator) == []
    session.screenshot("paste-problem")


def test_a_cold_start_by_dbus_activation_asks_about_a_sign_in_started_before_and_no_command_line_holds_the_grant(
        session, emulator):
    saved = session.root / "address-bar.txt"
    session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    window = session.launch()
    window.click("Continue with Google")
    desktop.wait_until(lambda: session.browser_events("saved"), what="the browser to reach the redirect")
    session.quit_app()   # the app stops mid sign-in (as on a crash or log-out): no app waits for it now

    redirect = session.take_saved(saved)
    assert session.gio_open(redirect) == 0   # the desktop activates the app by name over D-Bus
    window = session.attach()
    window.wait_for_text(CONFIRM)
    assert exchanges(emulator) == [], "a sign-in whose app has quit finished without asking"
    window.click("Sign In")
    assert signed_in_end_user(window) == end_user_id(emulator, "alice@example.com")
    assert command_lines_holding(grant_of(redirect)) == [], "a command line holds the grant"
    # Started by the session bus itself (D-Bus activation marks the services it starts), not by a
    # launcher with the URI in argv.
    environment = Path(f"/proc/{window.pid}/environ").read_bytes().split(b"\0")
    assert b"DBUS_STARTER_BUS_TYPE=session" in environment, "the app was not D-Bus activated"


def test_started_with_the_uri_on_its_command_line_the_app_wipes_it(session, emulator):
    redirect = session.mint_redirect("alice@example.com")
    window = session.launch(redirect)   # a launcher without D-Bus: Exec=portal-sign-in %u
    window.wait_for_text(CONFIRM)
    assert command_lines_holding(grant_of(redirect)) == [], "the grant is still on the app's command line"
    assert exchanges(emulator) == []


def test_another_app_owning_the_scheme_shows_a_banner_whose_button_fixes_it(session, emulator):
    applications = Path(session.env["XDG_DATA_HOME"]) / "applications"
    (applications / "other-signin-handler.desktop").write_text(
        "[Desktop Entry]\nType=Application\nName=Other Sign-In Handler\nExec=/bin/true %u\nTerminal=false\n"
        "MimeType=x-scheme-handler/io.github.portalauth.signin;\n")
    subprocess.run(["update-desktop-database", str(applications)], env=session.env, check=True)
    subprocess.run(["xdg-mime", "default", "other-signin-handler.desktop", "x-scheme-handler/io.github.portalauth.signin"],
                   env=session.env, check=True)

    window = session.launch()
    window.wait_for("label", contains="open in Other Sign-In Handler instead of Portal Sign-In")
    session.screenshot("foreign-handler")
    window.click("Make Default")
    window.wait_gone("label", contains="instead of Portal Sign-In")
    query = subprocess.run(["xdg-mime", "query", "default", "x-scheme-handler/io.github.portalauth.signin"],
                           env=session.env, capture_output=True, text=True)
    assert query.stdout.strip() == "io.github.portalauth.SignIn.desktop"
