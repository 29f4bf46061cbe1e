"""Driving portal-sign-in through its accessibility tree (AT-SPI), plus screenshots.

Two displays run the tests (script/with-desktop-session): Xvfb (X11, every test) and a headless
Wayland compositor (`Tests/ui/run --wayland`: the tests marked `journey`, on mutter). AT-SPI names and
actions work on both. What only X11 offers here, and why:
- keyboard input (press_keys, type_text): xdotool speaks X11; headless mutter has no seat to inject
  keys into. On Wayland a journey puts text in with EditableText (as a paste would) instead.
- screenshots and pixel checks (screenshot, pixel): `import` reads X11 windows, and headless mutter
  has no screenshot API without gnome-shell. Under mutter screenshot() takes none (returns None);
  under weston (script/screenshots) it uses weston-screenshooter, with the window's shadow.
- window lookup by title (window_id): xdotool, X11 only.
"""
import os
import subprocess
import tempfile
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402
import pyatspi  # noqa: E402
from waiting import wait_until  # noqa: E402,F401  (the drivers' one wait, used through desktop too)

APP_NAME = "portal-sign-in"
WINDOW_TITLE = "Portal Sign-In"
# The session's display: "mutter" or "weston" on Wayland, None on X11 (Xvfb).
COMPOSITOR = os.environ.get("PORTAL_COMPOSITOR") if os.environ.get("GDK_BACKEND") == "wayland" else None
WAYLAND = COMPOSITOR is not None


def x11_only(what):
    """A helper that needs X11 was called on Wayland: say so instead of failing in xdotool."""
    if WAYLAND:
        raise AssertionError(f"{what} needs X11 (xdotool); on Wayland drive the app through AT-SPI")


def cpu_seconds(pid):
    """Seconds of CPU (user and system) process PID has used so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime + stime


class TreeUnreadable(AssertionError):
    """The accessibility tree could not be read: no question about it has an answer, least of all
    "is this control absent?"."""


# The tests name roles as GTK 4.8 with at-spi2-core 2.46 (bookworm) report them. Newer stacks
# (trixie: GTK 4.18, at-spi2-core 2.56) give some controls more precise roles and renamed one; they
# read as the names the tests use, so one test serves both stacks.
NEWER_ROLE_NAMES = {
    "button": "push button",          # at-spi2-core's new name for the same role
    "toggle button": "push button",   # GTK 4.8 presents toggle buttons as (PRESSED) push buttons
    "switch": "check box",            # ... a GtkSwitch as a check box
    "radio button": "check box",      # ... grouped check buttons as check boxes
}


def _role(accessible):
    name = accessible.getRoleName()
    return NEWER_ROLE_NAMES.get(name, name)


def _name(accessible, role):
    """The name a screen reader announces: the node's own or, for a control without one, the text of
    the labels it is labelled by (GTK 4.18 names popover menu items only so)."""
    name = accessible.name or ""
    if name or role not in ("menu item", "push button", "check box"):
        return name
    for relation in accessible.getRelationSet():
        if relation.getRelationType() != Atspi.RelationType.LABELLED_BY:
            continue
        targets = [relation.getTarget(index) for index in range(relation.getNTargets())]
        return " ".join(text for text in (target.name or target.queryText().getText(0, -1) for target in targets) if text)
    return ""


def _visible(accessible):
    return accessible.getState().contains(pyatspi.STATE_VISIBLE)


def _walk(accessible):
    """Every visible node under `accessible`. Errors propagate: a tree that cannot be read must not
    look like a tree without the node a test asks about."""
    for index in range(accessible.childCount):
        child = accessible.getChildAtIndex(index)
        if child is None:
            raise TreeUnreadable(f"child {index} of {accessible.name!r} went away while it was read")
        if not _visible(child):
            continue  # the app hides pages that are not on screen
        yield child
        yield from _walk(child)


def read_tree(read, attempts=5):
    """Runs `read` (which walks the tree), again if the tree changed under it (a page switching);
    raises TreeUnreadable when it never completes."""
    last = None
    for _ in range(attempts):
        try:
            return read()
        except Exception as error:  # pyatspi raises plain exceptions for defunct or vanished nodes
            last = error
            time.sleep(0.1)
    raise TreeUnreadable(f"the accessibility tree could not be read: {last!r}")


def find_application(pid=None, name=APP_NAME):
    """The running portal-sign-in (or the program called `name`) on the accessibility bus (the one
    with `pid`, if given), or None when it is not there. An application that exits while it is looked
    at counts as not there; a desktop that cannot be listed at all is an error."""
    desktop = read_tree(lambda: pyatspi.Registry.getDesktop(0))
    count = read_tree(lambda: desktop.childCount)
    for index in range(count):
        try:
            app = desktop.getChildAtIndex(index)
            if app is None or app.name != name:
                continue
            if pid is not None and app.get_process_id() != pid:
                continue
            if app.childCount > 0:
                return app
        except Exception:
            continue  # that application went away meanwhile
    return None


class AppWindow:
    """The app's window as assistive technology sees it."""

    def __init__(self, application):
        self.application = application
        # Always read the live tree: pages appear and disappear as the sign-in goes on.
        Atspi.Accessible.set_cache_mask(application, Atspi.Cache.NONE)

    @property
    def pid(self):
        return self.application.get_process_id()

    def nodes(self):
        return read_tree(lambda: list(_walk(self.application)))

    def snapshot(self):
        """(node, role, name) of every visible node, read in one go."""
        def read():
            return [(node, role, _name(node, role)) for node in _walk(self.application) for role in (_role(node),)]
        return read_tree(read)

    def find(self, role, name=None, contains=None):
        """The first visible node that matches, or None only when the whole tree was read and none did."""
        for node, node_role, label in self.snapshot():
            if node_role != role:
                continue
            if name is not None and label != name:
                continue
            if contains is not None and contains not in label:
                continue
            return node
        return None

    def wait_for(self, role, name=None, contains=None, timeout=30.0):
        described = name or contains
        return wait_until(lambda: self.find(role, name=name, contains=contains), timeout=timeout,
                          what=f"{role} '{described}'")

    def wait_gone(self, role, name=None, contains=None, timeout=30.0):
        wait_until(lambda: self.find(role, name=name, contains=contains) is None, timeout=timeout,
                   what=f"{role} '{name or contains}' to go away")

    def pressed(self, role="push button"):
        """The names of the toggle buttons that are on (GTK 4.8 shows them as PRESSED push buttons),
        read in one go like snapshot()."""
        return read_tree(lambda: [node.name or "" for node in _walk(self.application)
                                  if _role(node) == role and node.getState().contains(pyatspi.STATE_PRESSED)])

    def has_text(self, text):
        return self.find("label", name=text) is not None

    def wait_for_text(self, text, timeout=30.0):
        return self.wait_for("label", name=text, timeout=timeout)

    def labels(self):
        return [label for _, role, label in self.snapshot() if role == "label"]

    def click(self, name, role="push button", timeout=30.0):
        """Clicks the control named `name` (a menu button is a named button inside a named button:
        the inner one has the click action)."""
        def clickable():
            for node, node_role, label in self.snapshot():
                if node_role != role or label != name:
                    continue
                action = node.queryAction()
                for index in range(action.nActions):
                    if action.getName(index) == "click":
                        return node, index
            return None
        button, index = wait_until(clickable, timeout=timeout, what=f"{role} '{name}'")
        wait_until(lambda: button.getState().contains(pyatspi.STATE_SENSITIVE), timeout=timeout,
                   what=f"'{name}' to be enabled")
        button.queryAction().doAction(index)
        return button

    def type_into(self, name, text, timeout=30.0):
        entry = self.wait_for("text", name=name, timeout=timeout)
        entry.queryEditableText().setTextContents(text)
        return entry

    def activate(self, name):
        entry = self.wait_for("text", name=name)
        action = entry.queryAction()
        for index in range(action.nActions):
            if action.getName(index) == "activate":
                action.doAction(index)
                return
        raise AssertionError(f"'{name}' cannot be activated")

    def detail(self, heading, timeout=30.0):
        """The value the Signed in page shows under `heading`, opening its Details first when the
        heading is not among the facts on view (the identifiers live there)."""
        def value():
            labels = self.labels()
            if heading in labels and labels.index(heading) + 1 < len(labels):
                return labels[labels.index(heading) + 1]
            self.expand_details()
            return None
        return wait_until(value, timeout=timeout, what=f"the value under '{heading}'")

    def expand_details(self):
        """Opens the Signed in page's Details expander (a no-op when it is open)."""
        for node, role, label in self.snapshot():
            if label == "Details" and role in ("push button", "toggle button"):
                if node.getState().contains(pyatspi.STATE_EXPANDED):
                    return
                action = node.queryAction()
                for index in range(action.nActions):
                    if action.getName(index) in ("activate", "click"):
                        action.doAction(index)
                        return

    def sign_out(self, button="Sign Out…"):
        """Sign Out on the Signed in page, then Sign Out in the dialog that asks first."""
        self.click(button)
        self.click("Sign Out")

    def focused(self):
        """The focused node, or None when the whole tree was read and nothing has focus."""
        def read():
            for node in _walk(self.application):
                if node.getState().contains(pyatspi.STATE_FOCUSED):
                    return node
            return None
        return read_tree(read)

    def extents(self, node):
        """(x, y, width, height) of `node` inside the window."""
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return box.x, box.y, box.width, box.height


def window_id(title=f"^{WINDOW_TITLE}$"):
    """The X11 window of the app whose title matches `title` (there is no window manager under Xvfb)."""
    x11_only("finding a window by its title")
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                           capture_output=True, text=True)
    ids = found.stdout.split()
    return ids[-1] if ids else None


def press_keys(*keys):
    """Keyboard input to the app's window, as a person would type it (X11 only)."""
    wid = wait_until(window_id, what="the app window")
    subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=False, capture_output=True)
    subprocess.run(["xdotool", "key", "--window", wid, "--clearmodifiers", *keys], check=True)


def type_text(text):
    """Types `text` at the keyboard (X11 only)."""
    wid = wait_until(window_id, what="the app window")
    subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=False, capture_output=True)
    subprocess.run(["xdotool", "type", "--delay", "60", text], check=True)


def screenshot(name, directory, title=None):
    """Saves the app window (or the one titled `title`) as <directory>/<name>.png and returns its
    path; None under mutter, which offers no screenshot here. Under weston: the whole output, cropped
    to what differs from the desktop's plain background (the window with its shadow); script/screenshots
    takes the AppStream screenshots that way."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{name}.png")
    if COMPOSITOR == "mutter":
        return None
    time.sleep(0.6)  # let the last transition and spinner frame settle
    if COMPOSITOR == "weston":
        return weston_screenshot(path)
    wid = wait_until(lambda: window_id(title) if title else window_id(), what="the app window")
    subprocess.run(["import", "-window", wid, path], check=True, capture_output=True)
    return path


def weston_screenshot(path):
    """weston-screenshooter (weston runs with --debug) saves the output as wayland-screenshot-*.png in
    its working directory; the window and its shadow are cropped out of the plain background."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["weston-screenshooter"], cwd=folder, check=True, capture_output=True, timeout=30)
        shots = [name for name in os.listdir(folder) if name.endswith(".png")]
        assert len(shots) == 1, f"weston-screenshooter saved {shots}"
        # -trim cuts the plain background away; with 1% fuzz it also takes the shadow's faintest
        # fringe (under 1% from the background, invisible), which keeps the 420×640 window with its
        # shadow within the 1000×700 Flathub takes. +repage drops the old canvas.
        subprocess.run(["convert", os.path.join(folder, shots[0]), "-fuzz", "1%", "-trim", "+repage", path],
                       check=True, capture_output=True)
    return path


def pixel(path, x, y):
    """The (r, g, b) of one pixel of a PNG, 0–255."""
    out = subprocess.run(["convert", path, "-format", f"%[fx:int(255*p{{{x},{y}}}.r)],"
                          f"%[fx:int(255*p{{{x},{y}}}.g)],%[fx:int(255*p{{{x},{y}}}.b)]", "info:"],
                         capture_output=True, text=True, check=True).stdout
    return tuple(int(part) for part in out.strip().split(","))


def mean_brightness(path):
    out = subprocess.run(["convert", path, "-colorspace", "Gray", "-format", "%[fx:mean]", "info:"],
                         capture_output=True, text=True, check=True).stdout
    return float(out)
