"""The Preferences window: what a person types is saved to GSettings only when it is valid, with the
reason shown when it is not; the switch and Reset reach GSettings too. What Preferences shows is
what the window signs in with: a change applies at once, and a setting the environment gives shows
locked."""
import subprocess

import pyatspi

from desktop import wait_until, window_id

SCHEMA = "io.github.portalauth.SignIn"
# The session's variables that Preferences would show locked: these tests set the emulator in
# GSettings instead, as a person's own Preferences would.
OVERRIDES = ("PORTAL_SIGN_IN_BACKEND", "PORTAL_API_HOST", "PORTAL_AUTH_EMULATOR_HOST", "TURNKEY_AUTH_PROXY_URL")
LOCKED = "Set by the environment"
HOST_PROBLEM = ("Enter a host name such as api.portalhq.io, optionally with https:// and a port. Plain http is only "
                "allowed to this computer (127.0.0.1 or localhost).")
REDIRECT_PROBLEM = ("The redirect URL must start with io.github.portalauth.signin:// so that the browser "
                    "comes back to this app.")
LOOPBACK_PROBLEM = ("A web address as the redirect URL must be http://127.0.0.1:PORT/PATH, with the port your "
                    "environment allows (not localhost), and no query.")
LOOPBACK_HINT = ("On a computer shared with other people, a redirect URL of http://127.0.0.1:PORT/PATH brings the "
                 "sign-in back to this app alone.")


def stored(session, key):
    """The value the app saved, read back the way any other program would (keyfile backend)."""
    out = subprocess.run(["gsettings", "get", SCHEMA, key], env=dict(session.env, GSETTINGS_BACKEND="keyfile"),
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def store(session, key, value):
    subprocess.run(["gsettings", "set", SCHEMA, key, value], env=dict(session.env, GSETTINGS_BACKEND="keyfile"),
                   check=True)


def launch_without_overrides(session):
    """The app with nothing set by the environment, on the emulator chosen in GSettings."""
    store(session, "local-test-environment", "true")
    store(session, "emulator-host", session.emulator.host)
    return session.launch(GSETTINGS_BACKEND="keyfile", unset=OVERRIDES)


def show_preferences(window, first_field="API host"):
    window.click("Main Menu")
    item = window.wait_for("menu item", name="Preferences")
    item.queryAction().doAction(0)
    window.wait_for("text", name=first_field)


def open_preferences(session):
    window = launch_without_overrides(session)
    window.wait_for_text("Sign In to Portal")
    show_preferences(window)
    return window


def sensitive(node):
    return node.getState().contains(pyatspi.STATE_SENSITIVE)


def checked(node):
    return node.getState().contains(pyatspi.STATE_CHECKED)


def apply(window, field, text):
    """Clicks into the field, replaces its text by typing, and presses Enter, as a person applies an
    entry row (GTK 4.8 offers no AT-SPI focus or activate action for it)."""
    entry = window.wait_for("text", name=field)
    x, y, width, height = window.extents(entry)
    wid = wait_until(lambda: window_id("^Preferences$"), what="the Preferences window")
    subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=False, capture_output=True)
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(x + width // 2), str(y + height // 2),
                    "click", "1"], check=True)
    subprocess.run(["xdotool", "key", "--clearmodifiers", "ctrl+a"], check=True)
    subprocess.run(["xdotool", "type", "--delay", "30", text], check=True)
    subprocess.run(["xdotool", "key", "--clearmodifiers", "Return"], check=True)


def test_preferences_refuse_an_invalid_host_and_save_a_valid_one(session):
    window = open_preferences(session)
    assert stored(session, "api-host") == "''"

    apply(window, "API host", "http://api.example.com/v3")
    window.wait_for_text(HOST_PROBLEM)
    session.screenshot("preferences-invalid-host", title="^Preferences$")
    assert stored(session, "api-host") == "''", "an invalid host was saved"

    apply(window, "API host", "api.example.com:8443")
    wait_until(lambda: stored(session, "api-host") == "'api.example.com:8443'", what="the host to be saved")
    window.wait_gone("label", name=HOST_PROBLEM)

    # The same rules as a sign-in: https with a scheme is fine, plain http only to this computer.
    apply(window, "API host", "https://portal.example.com")
    wait_until(lambda: stored(session, "api-host") == "'https://portal.example.com'", what="the https host to be saved")
    apply(window, "API host", "http://127.0.0.1:8790")
    wait_until(lambda: stored(session, "api-host") == "'http://127.0.0.1:8790'", what="the loopback host to be saved")


def test_preferences_keep_the_redirect_on_the_apps_own_scheme_or_a_loopback_address(session):
    window = open_preferences(session)
    # When to choose a loopback redirect, in one sentence under the fields.
    assert window.has_text(LOOPBACK_HINT), "Preferences does not say when to use a loopback redirect"
    apply(window, "Redirect URL", "evil.app://auth/callback")
    window.wait_for_text(REDIRECT_PROBLEM)
    assert stored(session, "redirect-url") == "''", "a redirect the app cannot receive was saved"
    for web in ("https://example.com/callback", "http://localhost:8791/auth/callback", "http://127.0.0.1/auth/callback"):
        apply(window, "Redirect URL", web)
        window.wait_for_text(LOOPBACK_PROBLEM)
        assert stored(session, "redirect-url") == "''", f"{web} was saved"

    apply(window, "Redirect URL", "http://127.0.0.1:8791/auth/callback")
    wait_until(lambda: stored(session, "redirect-url") == "'http://127.0.0.1:8791/auth/callback'",
               what="the loopback redirect URL to be saved")
    apply(window, "Redirect URL", "io.github.portalauth.signin://auth/other")
    wait_until(lambda: stored(session, "redirect-url") == "'io.github.portalauth.signin://auth/other'",
               what="the redirect URL to be saved")


def test_preferences_switch_and_reset_reach_gsettings(session):
    window = open_preferences(session)
    apply(window, "Auth environment ID", "staging-env")
    wait_until(lambda: stored(session, "auth-environment-id") == "'staging-env'", what="the environment to be saved")

    # GTK 4.8 presents a GtkSwitch to AT-SPI as a check box.
    switch = window.wait_for("check box", name="Account abstraction")
    switch.queryAction().doAction(0)
    wait_until(lambda: stored(session, "account-abstracted") == "true", what="account abstraction to be saved")

    window.click("Reset")
    wait_until(lambda: stored(session, "auth-environment-id") == "''" and stored(session, "account-abstracted") == "false",
               what="Reset to restore the defaults")
    # The field shows the stored (now empty) value again.
    field = window.wait_for("text", name="Auth environment ID")
    assert field.queryText().getText(0, -1) == ""


def click_at(window, node):
    x, y, width, height = window.extents(node)
    wid = wait_until(lambda: window_id("^Preferences$"), what="the Preferences window")
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(x + width // 2), str(y + height // 2),
                    "click", "1"], check=True)


def choose(window, service):
    """Picks the sign-in service with the mouse (GTK 4.8 gives a grouped check button no AT-SPI
    action, and presents it as a check box); the other choice turns off, as radio buttons do."""
    click_at(window, window.wait_for("check box", name=service))
    other = window.wait_for("check box", name="Portal" if service == "Turnkey" else "Turnkey")
    wait_until(lambda: not other.getState().contains(pyatspi.STATE_CHECKED), what=f"{service} to be the only choice")


TURNKEY_URL_PROBLEM = "Use an https:// address. Plain http is only allowed to this computer (127.0.0.1 or localhost)."
TURNKEY_ID_PROBLEM = "IDs and session keys have no spaces."


def test_preferences_choose_turnkey_and_check_its_settings_with_the_cores_rules(session):
    window = open_preferences(session)
    assert stored(session, "backend") == "'portal'"
    assert window.find("text", name="Auth Proxy URL") is None, "Turnkey's settings show while Portal is chosen"

    choose(window, "Turnkey")
    wait_until(lambda: stored(session, "backend") == "'turnkey'", what="the Turnkey backend to be saved")
    window.wait_for("text", name="Auth Proxy URL")
    window.wait_gone("text", name="API host")
    session.screenshot("preferences-turnkey", title="^Preferences$")

    apply(window, "Auth Proxy URL", "http://authproxy.example.com")
    window.wait_for_text(TURNKEY_URL_PROBLEM)
    assert stored(session, "turnkey-auth-proxy-url") == "''", "a plain-http Auth Proxy was saved"
    apply(window, "Auth Proxy URL", "https://authproxy.turnkey.com/")
    wait_until(lambda: stored(session, "turnkey-auth-proxy-url") == "'https://authproxy.turnkey.com/'",
               what="the Auth Proxy URL to be saved")
    window.wait_gone("label", name=TURNKEY_URL_PROBLEM)

    apply(window, "Organization ID", "my org")
    window.wait_for_text(TURNKEY_ID_PROBLEM)
    assert stored(session, "turnkey-organization-id") == "''"
    apply(window, "Session key", "laptop")
    wait_until(lambda: stored(session, "turnkey-session-key") == "'laptop'", what="the session key to be saved")

    window.click("Reset")
    wait_until(lambda: stored(session, "turnkey-auth-proxy-url") == "''" and stored(session, "turnkey-session-key") == "''",
               what="Reset to empty the Turnkey settings")
    assert stored(session, "backend") == "'turnkey'", "Reset changed the chosen service"

    choose(window, "Portal")
    wait_until(lambda: stored(session, "backend") == "'portal'", what="the Portal backend to be saved")
    window.wait_for("text", name="API host")


def test_preferences_turn_the_local_test_environment_off_and_on_and_the_window_follows(session):
    window = open_preferences(session)
    assert stored(session, "local-test-environment") == "true"
    # GTK 4.8 presents a GtkSwitch to AT-SPI as a check box.
    switch = window.wait_for("check box", name="Local test environment")
    assert checked(switch) and sensitive(switch)
    switch.queryAction().doAction(0)
    wait_until(lambda: stored(session, "local-test-environment") == "false", what="the local test environment to be off")
    # Portal's production service has no auth environment ID here: the window asks to be set up,
    # and no longer says it is on a test environment.
    window.wait_for_text("Set Up Portal Sign-In")
    switch.queryAction().doAction(0)
    wait_until(lambda: stored(session, "local-test-environment") == "true", what="the local test environment to be on")
    window.wait_for_text("Sign In to Portal")


def test_choosing_another_service_in_preferences_changes_the_window_at_once(session):
    window = open_preferences(session)
    assert window.find("push button", name="Continue with Discord") is None

    choose(window, "Turnkey")
    window.wait_for_text("Sign In to Turnkey")
    window.wait_for("push button", name="Continue with Discord")
    window.wait_for("push button", name="Continue with X")

    choose(window, "Portal")
    window.wait_for_text("Sign In to Portal")
    window.wait_gone("push button", name="Continue with Discord")


def test_a_sign_in_waiting_in_the_browser_ends_when_another_service_is_chosen(session):
    """The sign-in that waited is over: its redirect, arriving later, is not exchanged."""
    saved = session.root / "address-bar.txt"
    session.browse(email="alice@example.com", action="continue", save_to=str(saved))
    window = launch_without_overrides(session)
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    wait_until(lambda: session.browser_events("saved"), what="the browser to reach the redirect")

    show_preferences(window)
    choose(window, "Turnkey")
    window.wait_for("push button", name="Continue with Discord")
    window.wait_gone("label", name="Continue in Your Browser")

    assert session.gio_open(session.take_saved(saved)) == 0
    window.wait_for("push button", name="Continue with Discord")
    assert session.emulator.requests("POST", "/api/v3/auth/oauth/tokens") == [], "the ended sign-in's grant was spent"


def test_preferences_show_what_the_environment_sets_as_locked_rows(turnkey_session):
    """The session sets the service (Turnkey), the emulator and the Auth Proxy URL in the environment,
    while GSettings still holds its defaults (Portal, no emulator)."""
    session = turnkey_session
    window = session.launch(GSETTINGS_BACKEND="keyfile")
    window.wait_for("push button", name="Continue with Discord")
    show_preferences(window, first_field="Auth Proxy URL")

    turnkey, portal = window.wait_for("check box", name="Turnkey"), window.wait_for("check box", name="Portal")
    assert checked(turnkey) and not checked(portal), "Preferences shows another service than the window's"
    assert not sensitive(turnkey) and not sensitive(portal), "a choice the environment overrides is offered"
    emulator = window.wait_for("check box", name="Local test environment")
    assert checked(emulator) and not sensitive(emulator), "the switch contradicts the window's test environment"
    # The row shows the variable's value (GTK 4.8 gives assistive technology no text for an
    # insensitive entry; the screenshot shows it).
    assert not sensitive(window.wait_for("text", name="Auth Proxy URL"))
    assert len([label for label in window.labels() if label == LOCKED]) == 3, window.labels()
    # What the environment leaves alone stays the person's to set.
    assert sensitive(window.wait_for("text", name="Auth Proxy config ID"))
    session.screenshot("preferences-locked", title="^Preferences$")
