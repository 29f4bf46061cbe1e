"""End-to-end: portal-sign-in driven through AT-SPI against the emulator, with a scripted browser.
The tests marked `journey` run on Wayland too (`Tests/ui/run --wayland`); there the screenshots are
not taken and the wrong TOTP code is pasted rather than typed (X11-only, see desktop.py)."""
import subprocess
import urllib.parse
from pathlib import Path

import pytest

import desktop

TOKENS = "/api/v3/auth/oauth/tokens"
CALLBACK = "io.github.portalauth.signin://auth/callback"
FAKE_BROWSER = Path(__file__).with_name("fake_browser.py")


def user(emulator, email):
    matches = [u for u in emulator.admin("state")["users"] if u["email"] == email]
    assert matches, f"the emulator has no user {email}"
    return matches[0]


def signed_in_end_user(window):
    """The end user ID the Signed in page shows (the label after the "End user" heading)."""
    window.wait_for_text("You’re Signed In")
    return window.detail("End user")


@pytest.mark.journey
def test_google_sign_in_with_totp_enrolment(session, emulator):
    session.browse(email="totp@example.com", action="continue")
    window = session.launch()
    window.click("Continue with Google")

    window.wait_for_text("Set Up Two-Factor Sign-In")
    assert window.find("image", name="QR code for your authenticator app") is not None, "no QR code on enrolment"
    secret = emulator.admin("users/totp@example.com/totp")["secret"]
    shown = [label for label in window.labels() if label.replace(" ", "") == secret]
    assert shown, "the setup key is not shown as text"
    session.screenshot("totp-enrolment")

    # A wrong code keeps the page and says so.
    right = subprocess.run(["oathtool", "--totp", "-b", secret], capture_output=True, text=True,
                           check=True).stdout.strip()
    wrong = f"{(int(right) + 1) % 1_000_000:06d}"
    window.wait_for("text", name="Six-digit code")
    # Typed at the keyboard on X11: six digits submit by themselves. Wayland here has no keyboard to
    # type with (see desktop.py), so the code goes in as a paste would.
    if desktop.WAYLAND:
        window.type_into("Six-digit code", wrong)
    else:
        desktop.type_text(wrong)
    window.wait_for("label", contains="That code is not right")
    assert window.find("text", name="Six-digit code") is not None, "the code page was left after a wrong code"

    right = subprocess.run(["oathtool", "--totp", "-b", secret], capture_output=True, text=True,
                           check=True).stdout.strip()
    window.type_into("Six-digit code", right)   # like a paste
    end_user = signed_in_end_user(window)
    assert end_user == user(emulator, "totp@example.com")["endUserId"]
    assert len(emulator.requests("POST", "/api/v3/auth/totps/validations")) == 2
    session.screenshot("signed-in")


@pytest.mark.journey
def test_apple_with_hide_my_email_signs_in_a_relay_user(session, emulator):
    session.browse(email="alice@example.com", action="continue", share="hide")
    window = session.launch()
    window.click("Continue with Apple")
    end_user = signed_in_end_user(window)

    relay = [u for u in emulator.admin("state")["users"] if u["email"].endswith("@privaterelay.appleid.com")]
    assert [u["endUserId"] for u in relay] == [end_user], "the signed-in user is not the Hide My Email user"
    assert end_user != user(emulator, "alice@example.com")["endUserId"]
    assert [e.get("share") for e in session.browser_events("submitted")] == ["hide"]
    session.screenshot()


def test_cancel_at_the_provider_is_a_notice_and_the_sign_in_page_is_the_next_step(session, emulator):
    session.browse(email="alice@example.com", action="cancel")
    window = session.launch()
    window.click("Continue with Google")

    window.wait_for("label", name="Sign-in cancelled in the browser")
    assert window.find("push button", name="Dismiss") is None, "a cancel raised the error banner"
    assert window.has_text("Sign In to Portal"), "not back on the Sign in page"
    assert emulator.requests("POST", TOKENS) == [], "a grant was exchanged after Cancel"
    assert [e["has_error"] for e in session.browser_events("delivered")] == [True]
    session.screenshot()

    # The provider buttons start a new browser sign-in.
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    assert signed_in_end_user(window) == user(emulator, "alice@example.com")["endUserId"]


def test_escape_while_waiting_for_the_browser_goes_back_to_sign_in(session, emulator):
    session.browse(action="hold")   # the person never finishes in the browser
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    desktop.wait_until(lambda: session.browser_events("opened"), what="the browser to open")
    assert session.browser_events("opened")[0]["path"] == "/idp/google/authorize"
    assert window.find("push button", name="Copy Link") is not None
    assert window.find("text", name="Redirect link from the browser") is not None
    session.screenshot("browser-wait")

    desktop.press_keys("Escape")
    window.wait_for_text("Sign In to Portal")
    assert window.find("label", name="Continue in Your Browser") is None
    focused = window.focused()
    assert focused is not None and focused.name == "Continue with Google", "focus is not on the first button"

    # A new sign-in can start right away (the cancelled one released its slot).
    session.browse(email="alice@example.com", action="continue")
    desktop.press_keys("Return")   # Enter activates the focused "Continue with Google"
    assert signed_in_end_user(window) == user(emulator, "alice@example.com")["endUserId"]


def test_the_same_redirect_delivered_twice_is_exchanged_once(session, emulator):
    session.browse(email="alice@example.com", action="continue", deliver_times=2)
    window = session.launch(PORTAL_DEBUG="1")
    window.click("Continue with Google")
    signed_in_end_user(window)
    desktop.wait_until(lambda: len(session.browser_events("delivered")) == 2, what="the second delivery")
    # Not a fixed wait: the app's debug log says when it has handled the second delivery.
    desktop.wait_until(lambda: "replaying an already exchanged grant" in session.app_log(), timeout=30,
                       what="the app to handle the second delivery")

    assert [e["exit_status"] for e in session.browser_events("delivered")] == [0, 0]
    exchanges = emulator.requests("POST", TOKENS)
    assert [e["status"] for e in exchanges] == [200], "the redirect was exchanged more than once"
    assert window.has_text("You’re Signed In")
    # Every error banner has a Dismiss button, whatever its next step ("Try Again", "Sign In Again").
    assert window.find("push button", name="Dismiss") is None, "the second delivery showed an error"


@pytest.mark.journey
def test_sign_out_and_restore_after_restart(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    alice = signed_in_end_user(window)
    session.quit_app()

    # Restarted: the stored session is restored and checked with Portal.
    checks_before = len(emulator.requests("GET", "/api/v3/clients/me"))
    window = session.launch()
    assert signed_in_end_user(window) == alice
    assert len(emulator.requests("GET", "/api/v3/clients/me")) == checks_before + 1
    assert len(session.browser_events("opened")) == 1, "the restart opened the browser again"

    window.sign_out()
    window.wait_for_text("Sign In to Portal")
    session.quit_app()

    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    assert window.find("label", name="You’re Signed In") is None


def test_a_session_portal_no_longer_accepts_shows_session_ended_and_signs_in_again(session, emulator):
    window = session.launch()
    window.click("Continue with Google")
    signed_in_end_user(window)
    session.quit_app()

    emulator.admin("reset", {})   # Portal forgets every session
    window = session.launch()
    window.wait_for("alert", name="Session Ended")   # a page of its own, announced
    assert window.find("label", contains="Your session has ended") is not None
    assert [e["status"] for e in emulator.requests("GET", "/api/v3/clients/me")] == [401]
    session.screenshot()

    # Sign In Again starts a sign-in: the provider is unknown after a restart, so the sign-in page.
    window.click("Sign In Again")
    window.wait_for_text("Sign In to Portal")


@pytest.mark.journey
def test_magic_link_from_the_email_signs_in(session, emulator):
    window = session.launch()
    window.type_into("Email address", "alice@example.com")
    window.click("Email Me a Sign-In Link")
    window.wait_for_text("Check Your Email")
    assert window.find("label", contains="alice@example.com") is not None
    session.screenshot("check-email")

    outbox = emulator.admin("outbox")
    assert [m["email"] for m in outbox] == ["alice@example.com"]
    assert session.gio_open(outbox[0]["link"]) == 0   # the mail client opens the link
    assert signed_in_end_user(window) == user(emulator, "alice@example.com")["endUserId"]
    assert [e["status"] for e in emulator.requests("POST", "/api/v3/auth/magic-links/validations")] == [200]


def test_a_pasted_redirect_link_completes_the_sign_in(session, emulator):
    # The browser does not hand the custom scheme to the desktop; the person pastes the address.
    saved = session.root / "address-bar.txt"
    session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    window = session.launch()
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    desktop.wait_until(lambda: session.browser_events("saved"), what="the browser to reach the redirect")
    assert session.browser_events("delivered") == []

    window.type_into("Redirect link from the browser", session.take_saved(saved))
    window.click("Continue")
    assert signed_in_end_user(window) == user(emulator, "alice@example.com")["endUserId"]
    assert [e["status"] for e in emulator.requests("POST", TOKENS)] == [200]
