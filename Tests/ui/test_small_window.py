"""GNOME's mobile size, 360 × 294: every page fits the window's width (it scrolls where it is taller),
long names and translations wrap or ellipsize, and the window never widens itself to fit a page."""
import subprocess

import desktop
from test_language import launch_with_locale
from test_no_keyring import bare_bus  # noqa: F401  (the fixture)

WIDTH, HEIGHT = 360, 294


def shrink():
    """Sizes the app's window to 360 × 294 (X11: there is no window manager under Xvfb)."""
    wid = desktop.wait_until(app_window, what="the app window")
    subprocess.run(["xdotool", "windowsize", "--sync", wid, str(WIDTH), str(HEIGHT)], check=True, capture_output=True)
    desktop.wait_until(lambda: window_width() == WIDTH, what=f"the window to be {WIDTH} px wide")


def app_window():
    """The app's X11 window, whatever the language of its title."""
    return desktop.window_id(title="^(Portal Sign-In|Connexion Portal|Portal-Anmeldung)$")


def window_width():
    """The X11 window's width: what grows when a page asks for more than it has."""
    geometry = subprocess.run(["xdotool", "getwindowgeometry", app_window()], capture_output=True, text=True).stdout
    return int(geometry.split("Geometry: ")[1].split("x")[0])


def overflowing(window):
    """Every visible node that reaches past the left or right edge of the window's frame."""
    left, _, width, _ = window.extents(window.find("frame"))
    found = []
    for node, role, label in window.snapshot():
        if role in ("frame", "dialog"):
            continue
        try:
            x, y, node_width, height = window.extents(node)
        except NotImplementedError:
            continue  # a node without a place on screen (no Component)
        if (x, y) == (-1, -1):
            continue  # not laid out: a folded banner (GTK 4.8 reports it VISIBLE all the same)
        if node_width > 0 and (x < left or x + node_width > left + width):
            found.append((role, label, x, y, node_width, height))
    return found


def assert_fits(window, page):
    desktop.x11_only("sizing the window")
    assert window_width() == WIDTH, f"{page}: the window grew to {window_width()} px by itself"
    assert overflowing(window) == [], f"{page}: wider than the {WIDTH} px window"


def column_width(window, title):
    """The width of the page's column, as its title (which fills the column) has it."""
    return window.extents(window.wait_for("label", name=title))[2]


def test_the_portal_pages_fit_the_mobile_size(session, emulator):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    shrink()
    assert_fits(window, "sign in")
    columns = {"sign in": column_width(window, "Sign In to Portal")}

    window.type_into("Email address", "someone.with.a.rather.long.address@example.com")
    window.click("Email Me a Sign-In Link")
    window.wait_for_text("Check Your Email")
    assert_fits(window, "check your email")
    columns["check your email"] = column_width(window, "Check Your Email")
    window.click("Use Another Way to Sign In")

    session.browse(email="totp@example.com", action="hold")
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    assert_fits(window, "continue in your browser")
    columns["continue in your browser"] = column_width(window, "Continue in Your Browser")
    window.click("Cancel")
    window.wait_for_text("Sign In to Portal")

    session.browse(email="totp@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("Set Up Two-Factor Sign-In")
    assert_fits(window, "set up two-factor sign-in")
    columns["set up two-factor sign-in"] = column_width(window, "Set Up Two-Factor Sign-In")
    desktop.press_keys("Escape")
    window.wait_for_text("Sign In to Portal")

    session.gio_open(session.mint_redirect("alice@example.com"))
    window.wait_for_text("Finish Signing In?")
    assert_fits(window, "finish signing in")
    columns["finish signing in"] = column_width(window, "Finish Signing In?")
    window.click("Sign In")
    window.wait_for_text("You’re Signed In")
    window.expand_details()
    window.wait_for_text("End user")
    assert_fits(window, "signed in, details open")
    columns["signed in"] = column_width(window, "You’re Signed In")
    assert len(set(columns.values())) == 1, f"the content width changes from page to page: {columns}"


def test_two_turnkey_accounts_with_long_names_fit_in_french(turnkey_session, emulator):
    window = launch_with_locale(turnkey_session, LANG="fr_FR.UTF-8")
    window.wait_for_text("Se connecter à Turnkey")
    turnkey_session.browse(email="alice@example.com", action="continue")
    window.click("Continuer avec Discord")
    window.wait_for("push button", name="Ajouter un compte")
    window.click("Ajouter un compte")
    turnkey_session.browse(email="someone.with.a.rather.long.address@example.com", action="continue")
    window.click("Continuer avec Google")
    desktop.wait_until(lambda: len([n for n in window.labels() if " · " in n]) == 2, what="both accounts listed")
    shrink()
    assert_fits(window, "two accounts")
    window.expand_details()
    assert_fits(window, "two accounts, details open")


def test_the_no_keyring_page_fits_the_mobile_size(session, bare_bus):
    window = session.launch(wrapper=bare_bus.wrapper)
    window.wait_for("alert", name="No Keyring")
    shrink()
    assert_fits(window, "no keyring")
