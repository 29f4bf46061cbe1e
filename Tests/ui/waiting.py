"""The one way the test drivers wait (the UI tests, Firefox's driver, bench/appdriver.py): poll a
condition until it holds or the time is up."""
import time


def wait_until(condition, timeout=20.0, interval=0.2, what="condition"):
    """The condition's first true result; an AssertionError naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(interval)
