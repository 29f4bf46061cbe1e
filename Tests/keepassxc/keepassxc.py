"""KeePassXC as script/with-keepassxc started it: its database file (read with keepassxc-cli, the
password on stdin), its collection locked over the Secret Service, its unlock dialog answered on the
test display as a person would."""
import os
import subprocess
import time

import desktop

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


def _gdbus(*arguments):
    return subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets", *arguments],
                          capture_output=True, text=True, check=True).stdout


def collection():
    answer = _gdbus("--object-path", "/org/freedesktop/secrets", "--method", "org.freedesktop.DBus.Properties.Get",
                    "org.freedesktop.Secret.Service", "Collections")
    return answer.split("'")[1]


def is_locked():
    return "true" in _gdbus("--object-path", collection(), "--method", "org.freedesktop.DBus.Properties.Get",
                            "org.freedesktop.Secret.Collection", "Locked")


def lock():
    """Locks the database, as KeePassXC's Lock Database does (the Secret Service's Lock and its prompt)."""
    answer = _gdbus("--object-path", "/org/freedesktop/secrets", "--method", "org.freedesktop.Secret.Service.Lock",
                    f"[objectpath '{collection()}']")
    if "/prompt/" in answer:
        prompt = answer[answer.index("/org/freedesktop/secrets/prompt/"):].split("'")[0]
        _gdbus("--object-path", prompt, "--method", "org.freedesktop.Secret.Prompt.Prompt", "")
    desktop.wait_until(is_locked, timeout=10, what="KeePassXC's database to lock")


def _dialog():
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Unlock Database - KeePassXC$"],
                           capture_output=True, text=True)
    return found.stdout.split()[-1] if found.stdout.split() else None


def unlock_dialog():
    """KeePassXC's own "Unlock Database" window, once it shows."""
    return desktop.wait_until(_dialog, timeout=30, what="KeePassXC's unlock dialog")


def answer_unlock_dialog(accept):
    """Types the database password and Enter (accept) or presses Escape (dismiss) in KeePassXC's dialog."""
    window = unlock_dialog()
    subprocess.run(["xdotool", "windowfocus", "--sync", window], check=False, capture_output=True)
    time.sleep(0.3)
    if accept:
        # From the file: the password stays off every command line.
        subprocess.run(["xdotool", "type", "--window", window, "--delay", "10", "--file", PASSWORD_FILE], check=True)
        subprocess.run(["xdotool", "key", "--window", window, "Return"], check=True)
    else:
        subprocess.run(["xdotool", "key", "--window", window, "Escape"], check=True)
