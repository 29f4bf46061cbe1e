"""The UI suite's fixtures (the installed app, the emulator, a session with its scripted browser),
for the app run inside the reproduced Flatpak sandbox."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from ui_fixtures import use_ui_fixtures  # noqa: E402

use_ui_fixtures(globals())
