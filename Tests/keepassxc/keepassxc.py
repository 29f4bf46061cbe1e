"""KeePassXC as script/with-keepassxc started it: its database file (read with keepassxc-cli, the
password on stdin), its collection locked over the Secret Service, its unlock dialog answered on the
test display as a person would: the password entered and Unlock pressed, or Close pressed (through
AT-SPI: KeePassXC runs with Qt's accessibility on)."""
import os
import subprocess

import pyatspi

import desktop
import secret_service

DATABASE = os.environ.get("PORTAL_KEEPASSXC_DATABASE", "")
PASSWORD_FILE = os.environ.get("PORTAL_KEEPASSXC_PASSWORD_FILE", "")


def _password():
    with open(PASSWORD_FILE) as file:
        return file.read().strip()


def entries(group=""):
    """The titles of the entries the database file holds (recursively) under `group`, as saved."""
    listed = subprocess.run(["keepassxc-cli", "ls", "-R", "-f", DATABASE, *([group] if group else [])],
                            input=_password() + "\n", capture_output=True, text=True)
    return [line.strip() for line in listed.stdout.splitlines() if line.strip() and not line.rstrip().endswith("/")]


def recycled():
    return entries("Recycle Bin") if "Recycle Bin/" in subprocess.run(
        ["keepassxc-cli", "ls", DATABASE], input=_password() + "\n", capture_output=True, text=True).stdout else []


def collection():
    answer = secret_service.call(secret_service.SERVICE, "org.freedesktop.DBus.Properties.Get",
                                 "org.freedesktop.Secret.Service", "Collections")
    return answer.split("'")[1]


def is_locked():
    return secret_service.is_locked(collection())


def lock():
    """Locks the database, as KeePassXC's Lock Database does (the Secret Service's Lock and its prompt)."""
    secret_service.request("Lock", collection())
    desktop.wait_until(is_locked, timeout=10, what="KeePassXC's database to lock")


UNLOCK_TITLE = "Unlock Database - KeePassXC"


def _dialog():
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{UNLOCK_TITLE}$"],
                           capture_output=True, text=True)
    return found.stdout.split()[-1] if found.stdout.split() else None


def unlock_dialog_showing():
    """KeePassXC's unlock dialog's window, or None when it is not showing."""
    return _dialog()


def unlock_dialog():
    """KeePassXC's own "Unlock Database" window, once it shows."""
    return desktop.wait_until(_dialog, timeout=30, what="KeePassXC's unlock dialog")


def _dialog_button(name):
    """The showing button `name` of KeePassXC's unlock dialog, on the accessibility bus."""
    for application in pyatspi.Registry.getDesktop(0):
        if application is None or application.name != "KeePassXC":
            continue
        for window in application:
            if window is not None and window.name == UNLOCK_TITLE and window.getState().contains(pyatspi.STATE_SHOWING):
                button = pyatspi.findDescendant(window, lambda node: node.getRoleName() == "push button" and node.name == name
                                                and node.getState().contains(pyatspi.STATE_SHOWING))
                if button is not None:
                    return button
    return None


def _password_field():
    """The unlock dialog's password entry (the first "password text" under its "Password field")."""
    for application in pyatspi.Registry.getDesktop(0):
        if application is None or application.name != "KeePassXC":
            continue
        for window in application:
            if window is not None and window.name == UNLOCK_TITLE and window.getState().contains(pyatspi.STATE_SHOWING):
                field = pyatspi.findDescendant(window, lambda node: node.getRoleName() == "filler" and node.name == "Password field")
                if field is not None:
                    return pyatspi.findDescendant(field, lambda node: node.getRoleName() == "password text")
    return None


def answer_unlock_dialog(accept):
    """Enters the database password and presses Unlock (accept), or presses Close (dismiss), in
    KeePassXC's dialog, through its accessible entry and buttons: keystrokes sent to the window
    could land elsewhere while the dialog is still taking focus. Not Escape: KeePassXC can take
    that as the main window's own "Close" of the locked database, which closes the database."""
    unlock_dialog()
    if accept:
        entry = desktop.wait_until(_password_field, timeout=10, what="the unlock dialog's password entry")
        # From the file into the entry: the password stays off every command line.
        entry.queryEditableText().setTextContents(_password())
        press = desktop.wait_until(lambda: _dialog_button("Unlock"), timeout=10, what="the unlock dialog's Unlock button")
    else:
        press = desktop.wait_until(lambda: _dialog_button("Close"), timeout=10, what="the unlock dialog's Close button")
    press.queryAction().doAction(0)
    desktop.wait_until(lambda: _dialog() is None, timeout=15, what="KeePassXC's unlock dialog to close")


def unlock():
    """Unlocks the database through the Secret Service's Unlock and KeePassXC's dialog."""
    if secret_service.request("Unlock", collection()):
        answer_unlock_dialog(accept=True)
    desktop.wait_until(lambda: not is_locked(), timeout=10, what="KeePassXC's database to unlock")
