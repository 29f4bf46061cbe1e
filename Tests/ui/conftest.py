"""The UI suite's own hooks; its fixtures are the plugin ui_fixtures (Tests/ui/run loads it)."""
import os


def pytest_configure(config):
    config.addinivalue_line("markers", "journey: a sign-in journey; `Tests/ui/run --wayland` runs these again on "
                                       "headless mutter (GDK_BACKEND=wayland)")


def pytest_collection_modifyitems(config, items):
    """PORTAL_UI_SHARD=K/N (Tests/ui/run's parts): only every N-th test from the K-th on, so the N parts
    together run each collected test exactly once."""
    shard = os.environ.get("PORTAL_UI_SHARD")
    if not shard:
        return
    index, count = (int(number) for number in shard.split("/"))
    kept = items[index - 1::count]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept
