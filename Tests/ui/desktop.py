"""Driving portal-sign-in through its accessibility tree (AT-SPI), plus screenshots."""
import os
import subprocess
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402
import pyatspi  # noqa: E402

APP_NAME = "portal-sign-in"
WINDOW_TITLE = "Portal Sign-In"


def wait_until(condition, timeout=20.0, interval=0.2, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(interval)


def _role(accessible):
    try:
        return accessible.getRoleName()
    except Exception:
        return ""


def _has_state(accessible, state):
    """False too when the node went away while being asked: the app rebuilds some rows."""
    try:
        return accessible.getState().contains(state)
    except Exception:
        return False


def _name(accessible):
    try:
        return accessible.name or ""
    except Exception:
        return ""


def _visible(accessible):
    return _has_state(accessible, pyatspi.STATE_VISIBLE)


def _walk(accessible):
    try:
        count = accessible.childCount
    except Exception:
        return
    for index in range(count):
        try:
            child = accessible.getChildAtIndex(index)
        except Exception:
            continue
        if child is None or not _visible(child):
            continue  # the app hides pages that are not on screen
        yield child
        yield from _walk(child)


def find_application(pid=None):
    """The running portal-sign-in on the accessibility bus (the one with `pid`, if given)."""
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        try:
            app = desktop.getChildAtIndex(index)
            if app is None or app.name != APP_NAME:
                continue
            if pid is not None and app.get_process_id() != pid:
                continue
            if app.childCount > 0:
                return app
        except Exception:
            continue
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
        return list(_walk(self.application))

    def find(self, role, name=None, contains=None):
        for node in self.nodes():
            if _role(node) != role:
                continue
            label = _name(node)
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
        """The names of the toggle buttons that are on (GTK 4.8 shows them as PRESSED push buttons)."""
        return [_name(node) for node in self.nodes()
                if _role(node) == role and _has_state(node, pyatspi.STATE_PRESSED)]

    def has_text(self, text):
        return self.find("label", name=text) is not None

    def wait_for_text(self, text, timeout=30.0):
        return self.wait_for("label", name=text, timeout=timeout)

    def labels(self):
        return [node.name for node in self.nodes() if _role(node) == "label"]

    def click(self, name, role="push button", timeout=30.0):
        """Clicks the control named `name` (a menu button is a named button inside a named button:
        the inner one has the click action)."""
        def clickable():
            for node in self.nodes():
                if _role(node) != role or node.name != name:
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

    def focused(self):
        for node in self.nodes():
            try:
                if node.getState().contains(pyatspi.STATE_FOCUSED):
                    return node
            except Exception:
                continue
        return None

    def extents(self, node):
        """(x, y, width, height) of `node` inside the window."""
        box = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return box.x, box.y, box.width, box.height


def window_id(title=f"^{WINDOW_TITLE}$"):
    """The X11 window of the app whose title matches `title` (there is no window manager under Xvfb)."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                           capture_output=True, text=True)
    ids = found.stdout.split()
    return ids[-1] if ids else None


def press_keys(*keys):
    """Keyboard input to the app's window, as a person would type it."""
    wid = wait_until(window_id, what="the app window")
    subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=False, capture_output=True)
    subprocess.run(["xdotool", "key", "--window", wid, "--clearmodifiers", *keys], check=True)


def type_text(text):
    wid = wait_until(window_id, what="the app window")
    subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=False, capture_output=True)
    subprocess.run(["xdotool", "type", "--delay", "60", text], check=True)


def screenshot(name, directory, title=None):
    """Saves the app window (or the one titled `title`) as <directory>/<name>.png; the AppStream
    screenshots come from here too."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"{name}.png")
    time.sleep(0.6)  # let the last transition and spinner frame settle
    wid = wait_until(lambda: window_id(title) if title else window_id(), what="the app window")
    subprocess.run(["import", "-window", wid, path], check=True, capture_output=True)
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
