"""The UI suite's fixtures (the installed app, the emulator, a session with its scripted browser),
for the app run inside the reproduced Flatpak sandbox."""
import importlib.util
import sys
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "ui"
sys.path.insert(0, str(UI))
_spec = importlib.util.spec_from_file_location("ui_conftest", UI / "conftest.py")
_ui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ui)
globals().update({name: value for name, value in vars(_ui).items() if not name.startswith("_")})
