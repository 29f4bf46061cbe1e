"""The sign-in page in the light and the dark style: brand buttons by the providers' rules."""
import re
import subprocess
import time
from pathlib import Path

import desktop

# The one source of the version number (Sources/AuthBase/Version.swift).
VERSION = re.search(r'static let current = "([^"]+)"', (Path(__file__).parents[2] / "Sources" / "AuthBase" / "Version.swift").read_text()).group(1)


def brand_buttons(window):
    google = window.wait_for("push button", name="Continue with Google")
    apple = window.wait_for("push button", name="Continue with Apple")
    return window.extents(google), window.extents(apple)


def fill_colour(path, box):
    """The button's fill: a point in its left tenth, clear of the logo and the rounded corners."""
    x, y, width, height = box
    return desktop.pixel(path, x + max(24, width // 10), y + height // 2)


def close_to(colour, expected, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def render(session, scheme):
    window = session.launch(PORTAL_COLOR_SCHEME=scheme)
    window.wait_for_text("Sign In to Portal")
    google, apple = brand_buttons(window)
    path = session.screenshot(f"sign-in-{scheme}")
    session.quit_app()
    return path, google, apple


def test_light_and_dark_sign_in_pages_follow_the_branding_rules(session):
    light, google_light, apple_light = render(session, "light")
    dark, google_dark, apple_dark = render(session, "dark")

    # Both buttons the same size, at least 140×30.
    for google, apple in ((google_light, apple_light), (google_dark, apple_dark)):
        assert google[2:] == apple[2:], "the Google and Apple buttons differ in size"
        assert google[2] >= 140 and google[3] >= 30

    # Light: Google #FFFFFF, Apple black. Dark: Google #131314, Apple white.
    assert close_to(fill_colour(light, google_light), (0xFF, 0xFF, 0xFF))
    assert close_to(fill_colour(light, apple_light), (0x00, 0x00, 0x00))
    assert close_to(fill_colour(dark, google_dark), (0x13, 0x13, 0x14))
    assert close_to(fill_colour(dark, apple_dark), (0xFF, 0xFF, 0xFF))

    # The dark page as a whole is dark: far less bright than the light one, not merely different bytes.
    assert desktop.mean_brightness(dark) < desktop.mean_brightness(light) - 0.3


def test_every_control_on_the_sign_in_page_has_a_name(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    snapshot = window.snapshot()
    assert any(role == "push button" for _, role, _ in snapshot), "the tree holds no buttons at all"
    for wanted in ("push button", "text"):
        unnamed = [node for node, role, name in snapshot if role == wanted and not name.strip()]
        assert unnamed == [], f"{len(unnamed)} {wanted}(s) without an accessible name"


def test_tab_moves_focus_through_the_sign_in_page_in_reading_order(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    window.type_into("Email address", "alice@example.com")   # the send button is enabled only then

    def focused_name():
        node = window.focused()
        return node.name if node is not None else None

    # Wherever focus starts, Tab goes round the window; one full round from Google must pass the
    # page's controls in reading order.
    stops = []
    for _ in range(12):
        before = focused_name()
        desktop.press_keys("Tab")
        desktop.wait_until(lambda: focused_name() not in (None, before), timeout=10, what=f"Tab to move focus on from {before!r}")
        stops.append(focused_name())
    assert "Continue with Google" in stops, f"Tab never reached Continue with Google; it went {stops}"
    start = stops.index("Continue with Google")
    after = stops[start + 1:]
    one_round = after[:after.index("Continue with Google")] if "Continue with Google" in after else after
    wanted = ["Continue with Apple", "Email address", "Email Me a Sign-In Link"]
    missing = [name for name in wanted if name not in one_round]
    assert missing == [], f"a round of Tab from Google never reached {missing}; it went {stops}"
    positions = [one_round.index(name) for name in wanted]
    assert positions == sorted(positions), f"Tab order {stops} does not follow the page"


def test_the_menu_opens_an_about_window_with_the_app_id_and_version(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    window.click("Main Menu")
    item = window.wait_for("menu item", name="About Portal Sign-In")
    action = item.queryAction()
    action.doAction(0)
    window.wait_for("label", name=VERSION)
    if window.find("label", contains="io.github.portalauth.SignIn") is None:
        # libadwaita 1.5's About (AdwAboutDialog, inside the main window) shows the comments under
        # Details, a row with no AT-SPI action: clicked as a person would.
        x, y, width, height = window.extents(window.wait_for("list item", name="Details"))
        wid = desktop.wait_until(desktop.window_id, what="the app window")
        subprocess.run(["xdotool", "mousemove", "--window", wid, str(x + width // 2), str(y + height // 2),
                        "click", "1"], check=True)
    window.wait_for("label", contains="io.github.portalauth.SignIn")
    # Who makes it and where to reach them: the metainfo's developer, homepage and bug tracker
    # (Tests/data checks the words agree); one AT-SPI dump of what About shows, for the failure.
    shown = [f"{role}: {name}" for _, role, name in window.snapshot() if name]
    assert any("The Portal Sign-In for Linux authors" in line for line in shown), shown
    assert any("Website" in line for line in shown), shown
    assert any("Report an Issue" in line for line in shown), shown
    # AdwAboutWindow (libadwaita 1.2) is a window of its own; the dialog shows in the main window.
    session.screenshot("about", title="^About" if desktop.window_id("^About") else None)


def test_the_idle_app_does_not_keep_the_processor_busy(session):
    # Swift's main queue is bridged into the GLib loop; a bridge that never drains its wake-up
    # descriptor spins at 100% of a core while the window just sits there.
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    time.sleep(1)
    before = desktop.cpu_seconds(window.pid)
    time.sleep(3)
    used = desktop.cpu_seconds(window.pid) - before
    assert used < 0.5, f"the idle app used {used:.2f}s of CPU in 3s"
