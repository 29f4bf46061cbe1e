"""The Signed in page people keep open: who is signed in, to what and with which wallets, the
identifiers behind a Details expander, and a Sign Out that asks first and is never what Enter does."""
import json
import subprocess
import urllib.request

import pytest

import desktop
from test_turnkey import newest_user, sign_in as turnkey_sign_in


def sign_in_with_google(session, window, email="alice@example.com"):
    session.browse(email=email, action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")


def end_user_id(emulator, email):
    return [u for u in emulator.admin("state")["users"] if u["email"] == email][0]["endUserId"]


@pytest.mark.journey
def test_the_identifiers_wait_behind_details(session, emulator):
    window = session.launch()
    sign_in_with_google(session, window)
    end_user = end_user_id(emulator, "alice@example.com")
    assert end_user not in window.labels(), "the end user ID is shown before anyone asked for it"
    assert window.detail("End user") == end_user, "Details does not hold the end user ID"


def test_turnkey_names_the_person_the_organization_and_the_provider(turnkey_session, emulator):
    window = turnkey_session.launch()
    turnkey_sign_in(turnkey_session, window, "discord")
    organization = emulator.admin("turnkey")["organizations"][0]
    assert window.detail("Signed in as") == newest_user(emulator)["userName"]
    assert window.detail("Organization") == organization["organizationName"]
    assert window.detail("Signed in with") == "Discord"
    # Each shown once: the identifiers below do not repeat them.
    window.expand_details()
    desktop.wait_until(lambda: "Session renews before" in window.labels(), what="the Details to open")
    assert window.labels().count("Organization") == 1 and window.labels().count("Signed in with") == 1


def test_nothing_that_ends_the_session_has_the_focus(session):
    window = session.launch()
    sign_in_with_google(session, window)
    focused = desktop.wait_until(window.focused, what="a focused control")
    assert "Sign Out" not in (focused.name or ""), "Sign Out has the focus: Enter would end the session"
    if not desktop.WAYLAND:
        desktop.press_keys("Return")
        desktop.press_keys("space")
        assert session.stored_session() is not None, "Enter or Space ended the session"
        assert window.has_text("You’re Signed In")


@pytest.mark.journey
def test_sign_out_asks_and_the_session_stays_in_the_keyring_until_the_answer(session):
    window = session.launch()
    sign_in_with_google(session, window)
    window.click("Sign Out…")
    window.wait_for("dialog", contains="Sign Out")
    assert session.stored_session() is not None, "the session left the keyring before the answer"
    window.click("Cancel")
    window.wait_gone("dialog", contains="Sign Out")
    assert window.has_text("You’re Signed In") and session.stored_session() is not None, "Cancel signed out"

    window.sign_out()
    window.wait_for_text("Sign In to Portal")
    assert session.stored_session() is None, "Sign Out left the session in the keyring"


def clients_me(session, emulator):
    """What Portal's `GET /api/v3/clients/me` answers for the stored session (its token read from the
    keyring and sent, never printed)."""
    token = json.loads(session.stored_session())["clientSessionToken"]
    request = urllib.request.Request(f"{emulator.base_url}/api/v3/clients/me",
                                     headers={"Authorization": f"Bearer {token}", "Accept": "application/json",
                                              "x-portal-auth-environment-id": "local-dev"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = json.load(response)
    return body.get("data", body)


def shortened(address):
    return address if len(address) <= 13 else f"{address[:6]}…{address[-4:]}"


def test_portal_names_the_app_and_the_environment_and_shows_each_chains_address(session, emulator):
    window = session.launch()
    sign_in_with_google(session, window, "alice@example.com")
    client = clients_me(session, emulator)
    assert window.detail("App") == client["custodian"]["name"]
    assert window.detail("Environment") == client["environment"]["name"]
    namespaces = client["metadata"]["namespaces"]
    assert window.detail("EVM") == shortened(namespaces["eip155"]["address"])
    assert window.detail("Solana") == shortened(namespaces["solana"]["address"])
    window.click("Copy EVM address")
    window.wait_for_text("Address copied")


def test_a_client_without_a_wallet_says_so(session, emulator):
    window = session.launch()
    session.browse(email="totp@example.com", action="continue")
    window.click("Continue with Google")
    code_entry = "Six-digit code"
    window.wait_for("text", name=code_entry, timeout=60)
    secret = emulator.admin("users/totp@example.com/totp")["secret"]
    code = subprocess.run(["oathtool", "--totp", "-b", secret], capture_output=True, text=True, check=True).stdout.strip()
    window.type_into(code_entry, code)
    window.wait_for_text("You’re Signed In")
    assert clients_me(session, emulator)["wallets"] == []
    window.wait_for_text("No wallet yet")
