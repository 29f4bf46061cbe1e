"""Keys typed into one of the app's windows, found by title (X11), once GTK knows the window is the
active one: a key or a popover that reaches a window still inactive is lost, and a window focused
by an earlier test that has gone leaves the keyboard focus nowhere."""
import subprocess
import time

import pyatspi

from desktop import wait_until, window_id


def focus(window, title):
    """Gives the window titled `title` the keyboard focus, and waits until GTK knows it is the active
    one: a key (or a popover) that reaches a window still inactive is lost."""
    wid = wait_until(lambda: window_id(title), what=f"the window {title}")
    name = title.strip("^$")

    def active():
        subprocess.run(["xdotool", "windowfocus", "--sync", wid], check=False, capture_output=True, timeout=10)
        return any(top.name == name and top.getState().contains(pyatspi.STATE_ACTIVE)
                   for top in window.application if top is not None)
    wait_until(active, what=f"the window {title} to be active")
    return wid


def press_in(window, title, *keys):
    """Keys typed into the window titled `title` (X11), as a person would. xdotool types into the
    focused window through XTEST; when the window closes on the key press (Ctrl+W, Escape) it stops
    with BadWindow before letting go, and the X server then repeats the held key into every window
    that follows (the next app's closes at once). So the keys are let go of here, and the test
    looks at what they did, not at xdotool's status."""
    wid = focus(window, title)
    subprocess.run(["xdotool", "key", "--window", wid, "--clearmodifiers", *keys], check=False, capture_output=True)
    subprocess.run(["xdotool", "keyup", *keys], check=False, capture_output=True)


def press_until(window, title, keys, done, what):
    """Presses `keys` in the window titled `title` until `done()` holds: a key that reaches a window
    just made active is now and then lost on Xvfb; a person presses again, and so does this."""
    def pressed_and_done():
        if done():
            return True
        press_in(window, title, *keys)
        return wait_until_or_false(done)
    wait_until(pressed_and_done, timeout=60, what=what)


def wait_until_or_false(condition, attempts=15):
    for _ in range(attempts):
        if condition():
            return True
        time.sleep(0.2)
    return False
