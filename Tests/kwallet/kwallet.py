"""kwalletd5 as script/with-kwallet started it, read through its own interface (org.kde.KWallet,
what KWallet Manager shows) rather than the Secret Service the app uses."""
import re
import subprocess

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
