"""The brand buttons' focus ring is seen: at least 3:1 (WCAG 2.4.13) between the focused and the
unfocused look of the pixels it covers, for Google, Apple, Discord and X, light and dark. Computed
from the stylesheets' colours and libadwaita's window background, then measured in the real window
(the button focused with Tab, as a keyboard user does)."""
import re
import subprocess
from pathlib import Path

import pytest

import desktop
from keyboard import press_in

REPO = Path(__file__).resolve().parents[2]
STYLES = {"light": ["style.css"], "dark": ["style.css", "style-dark.css"]}
RING = "button.brand-button:focus:focus-visible"
MAIN = f"^{desktop.WINDOW_TITLE}$"
BUTTONS = ["Continue with Google", "Continue with Apple", "Continue with Discord", "Continue with X"]


def luminance(rgb):
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(value) for value in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, other):
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def hex_rgb(text):
    return tuple(int(text[index:index + 2], 16) for index in (1, 3, 5))


def ring(scheme):
    """The ring's colour and offset as the app's stylesheets give them (the dark one over the light)."""
    colour, offset = None, None
    for name in STYLES[scheme]:
        css = (REPO / "data" / "resources" / name).read_text()
        for body in re.findall(re.escape(RING) + r"\s*\{([^}]*)\}", css):
            colour = (re.findall(r"#[0-9A-Fa-f]{6}\b", body) or [colour])[-1]
            offset = int((re.findall(r"outline-offset:\s*(-?\d+)px", body) or [offset])[-1])
    return colour, offset


def window_background(scheme):
    """libadwaita's window background (what an outside ring covers), read from the library's own
    stylesheet in its GResource."""
    library = next(Path("/usr/lib").rglob("libadwaita-1.so.0"))
    css = subprocess.run(["gresource", "extract", str(library), f"/org/gnome/Adwaita/styles/defaults-{scheme}.css"],
                         capture_output=True, text=True, check=True).stdout
    return re.search(r"@define-color window_bg_color (#[0-9a-fA-F]{6});", css).group(1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_stylesheets_give_the_brand_buttons_a_ring_of_3_to_1_outside_them(scheme):
    colour, offset = ring(scheme)
    assert colour is not None, f"no solid focus ring colour for {RING} in {STYLES[scheme]}"
    assert offset is not None and offset > 0, "the ring overlaps the brand's own fill or border"
    background = window_background(scheme)
    ratio = contrast(hex_rgb(colour), hex_rgb(background))
    assert ratio >= 3, f"{scheme}: the ring {colour} has {ratio:.2f}:1 against the window's {background}"


def pixels(path):
    """Every pixel of a PNG as (r, g, b), row by row."""
    raw = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], capture_output=True, check=True).stdout
    return [tuple(raw[index:index + 3]) for index in range(0, len(raw), 3)]


def focus_with_tab(window, name):
    """Presses Tab until `name` has the keyboard focus (so GTK shows the focus ring)."""
    for _ in range(15):
        focused = window.focused()
        if focused is not None and focused.name == name:
            return focused
        press_in(window, MAIN, "Tab")
    raise AssertionError(f"Tab never reached {name}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_on_every_brand_button_has_3_to_1_in_the_window(turnkey_session, scheme):
    session = turnkey_session
    window = session.launch(PORTAL_COLOR_SCHEME=scheme)
    window.wait_for("push button", name="Continue with X")
    unfocused = session.screenshot(f"focus-ring-none-{scheme}")
    # A key pressed makes GTK show where the focus is, also on a button focused from the start.
    press_in(window, MAIN, "Tab", "shift+Tab")
    for name in BUTTONS:
        button = focus_with_tab(window, name)
        width = window.extents(button)[2]
        focused = session.screenshot(f"focus-ring-{name.split()[-1].lower()}-{scheme}")
        # Only the focus moved between the two screenshots: the pixels that changed are the ring.
        # Those with 3:1 or more must go round the button (at least its top and bottom edges).
        ring = [pair for pair in zip(pixels(focused), pixels(unfocused)) if pair[0] != pair[1]]
        seen = sum(1 for after, before in ring if contrast(after, before) >= 3)
        assert seen >= 2 * width, f"{scheme} {name}: {seen} of the ring's {len(ring)} pixels reach 3:1"
