"""The UI suite's fixtures (the installed app, the emulator, a session with its scripted browser),
here run on script/with-keepassxc's bus, where KeePassXC is the only Secret Service."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from ui_fixtures import use_ui_fixtures  # noqa: E402

use_ui_fixtures(globals())

assert os.environ.get("PORTAL_SECRET_SERVICE") == "KeePassXC", "run these through Tests/keepassxc/run (script/with-keepassxc)"

import secret_service  # noqa: E402
import keepassxc  # noqa: E402  (needs the UI suite's folder on the path)


@pytest.fixture(autouse=True)
def database_left_unlocked():
    """Each test starts on an unlocked database with no dialog of KeePassXC's open."""
    yield
    secret_service.leave_unlocked(keepassxc)
