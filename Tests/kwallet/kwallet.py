"""kwalletd5 as script/with-kwallet started it, read through its own interface (org.kde.KWallet,
what KWallet Manager shows) rather than the Secret Service the app uses; its wallet closed over the
Secret Service, and its password dialog answered on the test display as a person would (through
AT-SPI: kwalletd5 runs with Qt's accessibility on)."""
import os
import re
import subprocess

import pyatspi

import desktop
import secret_service

APP = "portal-sign-in-tests"
WALLET = "kdewallet"


def _call(method, *arguments):
    return subprocess.run(["gdbus", "call", "--session", "--dest", "org.kde.kwalletd5", "--object-path",
                           "/modules/kwalletd5", "--method", f"org.kde.KWallet.{method}", *arguments],
                          capture_output=True, text=True, check=True, timeout=20).stdout


def entries():
    """{folder: [entry names]} of the wallet, as kwalletd5 keeps them."""
    handle = _call("open", WALLET, "0", APP).strip().strip("(),").split()[-1]
    folders = re.findall(r"'([^']*)'", _call("folderList", handle, APP))
    return {folder: re.findall(r"'([^']*)'", _call("entryList", handle, folder, APP)) for folder in folders}


COLLECTION = f"/org/freedesktop/secrets/collection/{WALLET}"
UNLOCK_TITLE = "KDE Wallet Service"


def is_locked():
    return secret_service.is_locked(COLLECTION)


def lock():
    """Closes the wallet, as the Secret Service's Lock does (KWallet Manager's Close)."""
    secret_service.request("Lock", COLLECTION)
    desktop.wait_until(is_locked, timeout=10, what="the wallet to close")


def _dialog():
    """kwalletd5's password dialog, on the accessibility bus, or None."""
    for application in pyatspi.Registry.getDesktop(0):
        if application is None or application.name != "kwalletd5":
            continue
        for window in application:
            if window is not None and window.name == UNLOCK_TITLE and window.getState().contains(pyatspi.STATE_SHOWING):
                return window
    return None


def unlock_dialog_showing():
    return _dialog()


def _showing(window, role, name=None):
    return pyatspi.findDescendant(window, lambda node: node.getRoleName() == role and (name is None or node.name == name)
                                  and node.getState().contains(pyatspi.STATE_SHOWING))


def answer_unlock_dialog(accept):
    """Enters the wallet's password and presses OK (accept), or presses Cancel, in kwalletd5's own
    dialog, through its accessible entry and buttons; then waits for the dialog to close."""
    window = desktop.wait_until(_dialog, timeout=30, what="kwalletd5's password dialog")
    if accept:
        entry = desktop.wait_until(lambda: _showing(window, "password text"), timeout=10, what="the dialog's password entry")
        with open(os.environ["PORTAL_KWALLET_PASSWORD_FILE"]) as file:
            # From the file into the entry: the password stays off every command line.
            entry.queryEditableText().setTextContents(file.read().strip())
    press = desktop.wait_until(lambda: _showing(window, "push button", "OK" if accept else "Cancel"), timeout=10,
                               what="the dialog's button")
    press.queryAction().doAction(0)
    desktop.wait_until(lambda: _dialog() is None, timeout=15, what="kwalletd5's password dialog to close")


def unlock():
    """Opens the wallet through the Secret Service's Unlock and kwalletd5's dialog; a wallet kwalletd5
    holds open already (the login opened it) is unlocked without asking."""
    if secret_service.request("Unlock", COLLECTION) and desktop.wait_until(
            lambda: "dialog" if _dialog() else "open" if not is_locked() else None, timeout=30,
            what="the wallet to open, or kwalletd5 to ask for its password") == "dialog":
        answer_unlock_dialog(accept=True)
    desktop.wait_until(lambda: not is_locked(), timeout=10, what="the wallet to open")
