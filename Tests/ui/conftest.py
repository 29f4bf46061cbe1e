"""The UI suite's own hooks; its fixtures are the plugin ui_fixtures (Tests/ui/run loads it)."""
import os


def pytest_configure(config):
    config.addinivalue_line("markers", "journey: a sign-in journey; `Tests/ui/run --wayland` runs these again on "
                                       "headless mutter (GDK_BACKEND=wayland)")


def pytest_collection_modifyitems(config, items):
    """PORTAL_UI_SHARD=K/N (Tests/ui/run's parts): the K-th of N parts that together run each collected
    test exactly once. A test file stays whole in one part: its tests may share what the machine has
    once (test_set_up.py's variants each have another user listen on 127.0.0.1:8790), and parts run
    side by side. Files go to the part with the fewest tests so far, the largest first."""
    shard = os.environ.get("PORTAL_UI_SHARD")
    if not shard:
        return
    index, count = (int(number) for number in shard.split("/"))
    files = {}
    for item in items:
        files.setdefault(str(item.fspath), []).append(item)
    loads = [0] * count
    part_of = {}
    for name in sorted(files, key=lambda name: (-len(files[name]), name)):
        part = loads.index(min(loads))
        part_of[name] = part
        loads[part] += len(files[name])
    kept = [item for item in items if part_of[str(item.fspath)] == index - 1]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept
