"""The keyboard shortcuts GNOME apps share: Ctrl+, opens Preferences, Ctrl+? the Keyboard Shortcuts
window, Ctrl+W closes the window it is pressed in (the main window is the app's only one, so the app
ends). And how Preferences and the Keyboard Shortcuts window look, light and dark, at their default
size and on a 360 px wide screen."""
import subprocess

import pytest

import desktop
from desktop import wait_until, window_id
from keyboard import focus, press_in, press_until

MAIN = f"^{desktop.WINDOW_TITLE}$"
SHORTCUTS_TITLE = "^Keyboard Shortcuts$"


def test_ctrl_comma_opens_preferences_and_ctrl_w_closes_it(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    press_in(window, MAIN, "ctrl+comma")
    window.wait_for("text", name="API host")
    press_in(window, "^Preferences$", "ctrl+w")
    window.wait_gone("text", name="API host")
    assert window.has_text("Sign In to Portal"), "Ctrl+W in Preferences closed the main window too"


def test_ctrl_question_mark_shows_the_keyboard_shortcuts(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    press_in(window, MAIN, "ctrl+question")
    for shortcut in ("Preferences", "Keyboard Shortcuts", "Close Window", "Quit"):
        window.wait_for("label", name=shortcut)
    press_in(window, SHORTCUTS_TITLE, "Escape")
    window.wait_gone("label", name="Close Window")


def test_the_main_menu_offers_the_keyboard_shortcuts(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    focus(window, MAIN)
    window.click("Main Menu")
    window.wait_for("menu item", name="Keyboard Shortcuts").queryAction().doAction(0)
    window.wait_for("label", name="Close Window")


def test_ctrl_w_closes_the_main_window_and_so_ends_the_app(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    press_until(window, MAIN, ["ctrl+w"], lambda: desktop.find_application() is None, what="the app to end with its window")


def resize(title, width):
    """Gives the window titled `title` a width, as a narrow screen would (no window manager runs)."""
    wid = wait_until(lambda: window_id(title), what=f"the window {title}")
    subprocess.run(["xdotool", "windowsize", "--sync", wid, str(width), "640"], check=False, capture_output=True)


def width_of(path):
    return int(subprocess.run(["identify", "-format", "%w", path], capture_output=True, text=True, check=True).stdout)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_of_preferences_and_the_keyboard_shortcuts(turnkey_session, scheme):
    session = turnkey_session
    window = session.launch(PORTAL_COLOR_SCHEME=scheme)
    window.wait_for("push button", name="Continue with Discord")
    press_in(window, MAIN, "ctrl+comma")
    window.wait_for("text", name="Auth Proxy URL")
    assert width_of(session.screenshot(f"preferences-{scheme}", title="^Preferences$")) == 560
    resize("^Preferences$", 360)
    wait_until(lambda: width_of(session.screenshot(f"preferences-360-{scheme}", title="^Preferences$")) == 360,
               what="Preferences to be 360 px wide")
    field = window.wait_for("text", name="Auth Proxy config ID")
    x, _, field_width, _ = window.extents(field)
    assert x + field_width <= 360, "a row runs off a 360 px window"
    press_until(window, "^Preferences$", ["ctrl+w"], lambda: window.find("text", name="Auth Proxy URL") is None,
                what="Ctrl+W to close Preferences")

    press_in(window, MAIN, "ctrl+question")
    window.wait_for("label", name="Close Window")
    session.screenshot(f"shortcuts-{scheme}", title=SHORTCUTS_TITLE)
    resize(SHORTCUTS_TITLE, 360)
    wait_until(lambda: width_of(session.screenshot(f"shortcuts-360-{scheme}", title=SHORTCUTS_TITLE)) == 360,
               what="the Keyboard Shortcuts window to be 360 px wide")
