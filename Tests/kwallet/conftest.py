"""This suite's own fixtures, beside the UI suite's (the plugin ui_fixtures, which its run script
loads): the app on script/with-kwallet's bus, where kwalletd5 is the only Secret Service."""
import os

import pytest

assert os.environ.get("PORTAL_SECRET_SERVICE") == "KWallet", "run these through Tests/kwallet/run (script/with-kwallet)"

import secret_service
import kwallet  # (it imports desktop: ui_fixtures put Tests/ui on the path)


@pytest.fixture(autouse=True)
def wallet_left_open():
    """Each test starts on an open wallet with no dialog of kwalletd5's showing."""
    yield
    secret_service.leave_unlocked(kwallet)
