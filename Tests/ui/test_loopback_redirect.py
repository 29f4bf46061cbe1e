"""A Portal sign-in with a loopback redirect URL (RFC 8252 §7.3): the app listens on 127.0.0.1:PORT
itself, the scripted browser follows Portal's redirect there with a plain GET, and nothing goes
through the desktop. Another local user (nobody, through setpriv) holding the port stops the sign-in
before anything is sent or opened."""
import socket
import subprocess

import pytest

CALLBACK = "io.github.portalauth.signin://auth/callback"
TOKENS = "/api/v3/auth/oauth/tokens"
OTHER_USER = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def allow_loopback(emulator):
    """A loopback redirect URL on a free port, allow-listed for the emulator's environment."""
    url = f"http://127.0.0.1:{free_port()}/auth/callback"
    emulator.admin("environments/local-dev", {"redirectUrls": [CALLBACK, url]})
    return url


def port_of(url):
    return int(url.split(":")[2].split("/")[0])


def test_google_sign_in_through_a_loopback_redirect(session, emulator):
    url = allow_loopback(emulator)
    window = session.launch(PORTAL_REDIRECT_URL=url)
    window.click("Continue with Google")
    window.wait_for_text("You're signed in")

    answered = session.browser_events("loopback")
    assert [(e["status"], e["path"], e["closes_tab"], e["external"]) for e in answered] == [(200, "/auth/callback", True, False)], \
        "the browser did not get the app's 'close this tab' page"
    assert session.browser_events("delivered") == [], "the redirect went through the desktop"
    assert [entry["status"] for entry in emulator.requests("POST", TOKENS)] == [200]
    assert session.stored_session() is not None, "no session in the keyring"
    # The one request was taken: the port is closed, a second request is refused.
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port_of(url)), timeout=5).close()
    session.screenshot()


def test_a_port_another_user_holds_is_refused_with_nothing_sent_or_opened(session, emulator):
    url = allow_loopback(emulator)
    script = ("import socket, time\n"
              "s = socket.socket()\n"
              "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
              "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)\n"
              f"s.bind(('127.0.0.1', {port_of(url)})); s.listen(5)\n"
              "print('bound', flush=True)\n"
              "time.sleep(120)\n")
    holder = subprocess.Popen([*OTHER_USER, "/usr/bin/python3", "-c", script], stdout=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True)
    try:
        assert holder.stdout.readline().strip() == "bound", "the other user could not take the port"
        window = session.launch(PORTAL_REDIRECT_URL=url)
        window.click("Continue with Google")
        window.wait_for("label", contains=f"Another program is using port {port_of(url)}")
        assert emulator.requests("GET", "/api/v3/auth/oauth/urls") == [], "Portal was asked for an authorize URL"
        assert session.browser_events("opened") == [], "a browser was opened"
        session.screenshot()
    finally:
        holder.terminate()
        holder.wait(timeout=10)
