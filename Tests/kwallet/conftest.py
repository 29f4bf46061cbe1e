"""The UI suite's fixtures (the installed app, the emulator, a session with its scripted browser),
here run on script/with-kwallet's bus, where kwalletd5 is the only Secret Service."""
import importlib.util
import os
import sys
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "ui"
sys.path.insert(0, str(UI))
sys.path.insert(0, str(UI.parent / "secret_service"))
_spec = importlib.util.spec_from_file_location("ui_conftest", UI / "conftest.py")
_ui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ui)
globals().update({name: value for name, value in vars(_ui).items() if not name.startswith("_")})

assert os.environ.get("PORTAL_SECRET_SERVICE") == "KWallet", "run these through Tests/kwallet/run (script/with-kwallet)"
