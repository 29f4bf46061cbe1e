"""This suite's own fixtures, beside the UI suite's (the plugin ui_fixtures, which its run script
loads): the app on script/with-keepassxc's bus, where KeePassXC is the only Secret Service."""
import os

import pytest

assert os.environ.get("PORTAL_SECRET_SERVICE") == "KeePassXC", "run these through Tests/keepassxc/run (script/with-keepassxc)"

import secret_service
import keepassxc  # (it imports desktop: ui_fixtures put Tests/ui on the path)


@pytest.fixture(autouse=True)
def database_left_unlocked():
    """Each test starts on an unlocked database with no dialog of KeePassXC's open."""
    yield
    secret_service.leave_unlocked(keepassxc)
