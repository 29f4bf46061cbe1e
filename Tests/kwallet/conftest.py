"""The UI suite's fixtures (the installed app, the emulator, a session with its scripted browser),
here run on script/with-kwallet's bus, where kwalletd5 is the only Secret Service."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from ui_fixtures import use_ui_fixtures  # noqa: E402

use_ui_fixtures(globals())

assert os.environ.get("PORTAL_SECRET_SERVICE") == "KWallet", "run these through Tests/kwallet/run (script/with-kwallet)"

import pytest  # noqa: E402

import secret_service  # noqa: E402
import kwallet  # noqa: E402  (needs the UI suite's folder on the path)


@pytest.fixture(autouse=True)
def wallet_left_open():
    """Each test starts on an open wallet with no dialog of kwalletd5's showing."""
    yield
    secret_service.leave_unlocked(kwallet)
