"""A screen reader asks the app about its windows by index, from a count it read a moment before. When
a window has closed since (the Sign Out question, answered), the index it asks for is past the app's
windows: the app must answer (or refuse) and keep running. GTK 4.8 answers such a question with the
last of the app's windows, shown or not, and crashes when that window was never shown; so the app
keeps no window it has not shown."""
import subprocess

import desktop
from keyboard import press_in

MAIN = f"^{desktop.WINDOW_TITLE}$"


def ask_for_window(window, index):
    """Asks the app itself for its window at `index` (no cache in between: the question reaches the app)."""
    try:
        return window.application.getChildAtIndex(index)
    except Exception:
        return None  # a refusal is an answer


def exit_status(session):
    """The app's exit status, if it ended within a moment of the question; None while it runs."""
    try:
        return session.processes[-1].wait(timeout=1)
    except subprocess.TimeoutExpired:
        return None


def app_log(session):
    return session.log_tail(session.logs / f"app-{len(session.processes) - 1}.log")


def test_asking_for_a_window_past_the_last_one_does_not_end_the_app(session):
    window = session.launch()
    window.wait_for_text("Sign In to Portal")
    # The Keyboard Shortcuts window, opened and closed, is no hidden window either.
    press_in(window, MAIN, "ctrl+question")
    window.wait_for("label", name="Close Window")
    press_in(window, "^Keyboard Shortcuts$", "Escape")
    window.wait_gone("label", name="Close Window")
    shown = window.application.childCount
    assert shown == 1, f"the app reports {shown} windows, not its one main window"
    for index in (shown, shown + 1):
        ask_for_window(window, index)
        status = exit_status(session)
        assert status is None, f"asking for window {index} ended the app ({status}):\n" + app_log(session)
    assert window.has_text("Sign In to Portal")


def test_a_closed_sign_out_question_is_no_window_to_ask_about(session):
    window = session.launch()
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    window.click("Sign Out…")
    window.wait_for("push button", name="Cancel")
    assert window.application.childCount == 2, "the Sign Out question is not a window of its own"
    window.click("Cancel")
    window.wait_gone("push button", name="Cancel")
    ask_for_window(window, 1)
    status = exit_status(session)
    assert status is None, f"asking for the closed question's window ended the app ({status}):\n" + app_log(session)
    assert window.has_text("You’re Signed In"), "cancelling the question signed out"
