"""The UI suite's fixtures (the installed app, the emulator, a session with its scripted browser),
here run on script/with-keepassxc's bus, where KeePassXC is the only Secret Service."""
import importlib.util
import os
import sys
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[1] / "ui"
sys.path.insert(0, str(UI))
sys.path.insert(0, str(UI.parent / "secret_service"))
_spec = importlib.util.spec_from_file_location("ui_conftest", UI / "conftest.py")
_ui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ui)
globals().update({name: value for name, value in vars(_ui).items() if not name.startswith("_")})

assert os.environ.get("PORTAL_SECRET_SERVICE") == "KeePassXC", "run these through Tests/keepassxc/run (script/with-keepassxc)"

import keepassxc  # noqa: E402  (needs the UI suite's folder on the path)


@pytest.fixture(autouse=True)
def database_left_unlocked():
    """Each test starts on an unlocked database with no dialog of KeePassXC's open, whatever the
    one before it left behind: a dialog left open would hold every later Secret Service call."""
    yield
    if keepassxc.unlock_dialog_showing() is not None:
        keepassxc.answer_unlock_dialog(accept=True)
    if keepassxc.is_locked():
        keepassxc.unlock()
