"""Notices and errors as a person meets them: errors announced to a screen reader (role alert),
Resend on "Check Your Email" within Portal's rate limit, and verbs on "Finish Signing In?"."""
import pyatspi

MAGIC_LINKS = "/api/v3/auth/magic-links"
TOKENS = "/api/v3/auth/oauth/tokens"


def test_resend_sends_another_link_and_waits_when_portal_says_too_many(session, emulator):
    window = session.launch()
    window.type_into("Email address", "alice@example.com")
    window.click("Email Me a Sign-In Link")
    window.wait_for_text("Check Your Email")

    window.click("Resend Link")
    window.wait_for("label", name="New link sent")
    assert len(emulator.admin("outbox")) == 2, "Resend sent no second mail"

    emulator.fault(MAGIC_LINKS, "status", status=429)
    window.click("Resend Link")
    # The error is an alert: a screen reader announces it.
    window.wait_for("alert", contains="Too many attempts")
    resend = window.wait_for("push button", name="Resend Link")
    assert not resend.getState().contains(pyatspi.STATE_SENSITIVE), "Resend is offered inside Portal's wait"
    assert len(emulator.requests("POST", MAGIC_LINKS)) == 3


def test_finish_signing_in_answers_with_verbs(session, emulator):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    session.gio_open(session.mint_redirect("alice@example.com"))
    window.wait_for_text("Finish Signing In?")
    assert window.find("push button", name="Sign In") is not None
    assert window.find("push button", name="Discard Link") is not None
    assert window.find("push button", name="Ignore") is None and window.find("push button", name="Continue") is None
    assert window.focused().name == "Discard Link", "the safe choice is not the default"
    window.click("Discard Link")
    window.wait_for_text("Sign In to Portal")
    assert emulator.requests("POST", TOKENS) == [], "Discard Link sent the grant"
