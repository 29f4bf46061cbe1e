"""A Portal sign-in with a loopback redirect URL (RFC 8252 §7.3): the app listens on 127.0.0.1:PORT
itself, the scripted browser follows Portal's redirect there with a plain GET, and nothing goes
through the desktop. Another local user (nobody, through setpriv) holding the port stops the sign-in
before anything is sent or opened."""
import socket
import subprocess
import time

import desktop

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
    window.wait_for_text("You’re Signed In")

    answered = session.browser_events("loopback")
    assert [(e["status"], e["path"], e["closes_tab"], e["external"]) for e in answered] == [(200, "/auth/callback", True, False)], \
        "the browser did not get the app's 'close this tab' page"
    assert session.browser_events("delivered") == [], "the redirect went through the desktop"
    assert [entry["status"] for entry in emulator.requests("POST", TOKENS)] == [200]
    assert session.stored_session() is not None, "no session in the keyring"
    # The one request was taken: the port stays the app's, and the same redirect again is answered
    # with the ended page and not exchanged.
    assert late_get(url) == 410
    assert [entry["status"] for entry in emulator.requests("POST", TOKENS)] == [200]
    session.screenshot()


def test_a_tab_that_finishes_after_cancel_reaches_no_other_user_and_signs_nothing_in(session, emulator):
    """Cancel frees nothing another user could take: the provider's tab can still finish (Portal's
    state lives 15 minutes), so the app keeps the port and answers the late redirect itself."""
    url = allow_loopback(emulator)
    go = session.root / "finish-the-tab"
    session.browse(email="alice@example.com", action="continue", loopback_after=str(go))
    window = session.launch(PORTAL_REDIRECT_URL=url)
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    desktop.wait_until(lambda: session.browser_events("paused"), what="the browser to reach the loopback redirect")
    window.click("Cancel")
    window.wait_for_text("Sign In to Portal")

    for sharing in ("none", "reuseAddress", "reusePort", "both"):
        assert other_user_binds(port_of(url), sharing) == "refused 98", f"another user took the port ({sharing})"
    go.touch()
    desktop.wait_until(lambda: session.browser_events("loopback"), what="the tab to finish")
    assert [e["status"] for e in session.browser_events("loopback")] == [410]
    assert emulator.requests("POST", TOKENS) == [], "the late grant was exchanged"
    assert window.find("label", name="You’re Signed In") is None
    assert session.stored_session() is None
    # The port is the app's again for the next sign-in: it completes.
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")


def late_get(url):
    """A GET of the loopback redirect URL as a browser tab would send it: the status it got."""
    with socket.create_connection(("127.0.0.1", port_of(url)), timeout=10) as connection:
        connection.sendall(f"GET /auth/callback?token=pg_0000000000000000&login_type=GOOGLE HTTP/1.1\r\n"
                           f"Host: 127.0.0.1:{port_of(url)}\r\n\r\n".encode())
        reply = b""
        while chunk := connection.recv(4096):
            reply += chunk
    return int(reply.split(b" ", 2)[1])


def other_user_binds(port, sharing):
    """Another local user trying to bind and listen on 127.0.0.1:PORT: "bound" or "refused ERRNO"."""
    script = ("import socket, sys\n"
              "s = socket.socket()\n"
              f"if '{sharing}' in ('reuseAddress', 'both'): s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
              f"if '{sharing}' in ('reusePort', 'both'): s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)\n"
              "try:\n"
              f"    s.bind(('127.0.0.1', {port})); s.listen(5); print('bound')\n"
              "except OSError as error:\n"
              "    print('refused', error.errno)\n")
    result = subprocess.run([*OTHER_USER, "/usr/bin/python3", "-c", script], capture_output=True, text=True, timeout=30)
    return result.stdout.strip()


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


def test_a_forged_redirect_from_another_loopback_address_is_refused_beside_the_browsers_connection(session, emulator):
    """The peer is the whole connection: another user on 127.0.0.2:P is not this user, even while this
    user's browser has a connection open from 127.0.0.1:P."""
    url = allow_loopback(emulator)
    session.browse(email="alice@example.com", action="hold")
    window = session.launch(PORTAL_REDIRECT_URL=url)
    window.click("Continue with Google")
    window.wait_for_text("Continue in Your Browser")
    with socket.create_connection(("127.0.0.1", port_of(url)), timeout=10) as browser_preconnect:
        source_port = browser_preconnect.getsockname()[1]
        script = ("import socket\n"
                  f"s = socket.create_connection(('127.0.0.1', {port_of(url)}), timeout=10, "
                  f"source_address=('127.0.0.2', {source_port}))\n"
                  "try: s.sendall(b'GET /auth/callback?token=pg_0000000000000000&login_type=GOOGLE HTTP/1.1\\r\\n\\r\\n')\n"
                  "except OSError: pass\n"
                  "reply = b''\n"
                  "try:\n"
                  "    while chunk := s.recv(4096): reply += chunk\n"
                  "except OSError: pass\n"
                  "print(reply.split(b'\\r\\n', 1)[0].decode() or 'no answer')\n")
        forged = subprocess.run([*OTHER_USER, "/usr/bin/python3", "-c", script], capture_output=True, text=True, timeout=30)
        assert forged.stdout.strip() == "no answer", f"the forged redirect got: {forged.stdout.strip()}"
    assert emulator.requests("POST", TOKENS) == [], "the forged grant was exchanged"
    window.wait_for_text("Continue in Your Browser")
    assert window.find("label", name="You’re Signed In") is None


def test_slow_connections_from_another_user_leave_the_app_idle_and_the_sign_in_working(session, emulator):
    """2,000 connections from another user, each sending a byte every two seconds, against an app with
    a desktop's usual 1,024 descriptors: each is closed unread, so nothing piles up or spins."""
    url = allow_loopback(emulator)
    go = session.root / "finish-the-tab"
    session.browse(email="alice@example.com", action="continue", loopback_after=str(go))
    window = session.launch(PORTAL_REDIRECT_URL=url, wrapper=("/usr/bin/prlimit", "--nofile=1024", "--"))
    window.click("Continue with Google")
    desktop.wait_until(lambda: session.browser_events("paused"), what="the browser to reach the loopback redirect")
    script = ("import resource, selectors, socket, time\n"
              "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 2100), hard))\n"
              "started, sockets = time.monotonic(), []\n"
              "for _ in range(2000):\n"
              "    s = socket.socket(); s.setblocking(False)\n"
              f"    s.connect_ex(('127.0.0.1', {port_of(url)})); sockets.append(s)\n"
              "selector, opened, pending = selectors.DefaultSelector(), 0, len(sockets)\n"
              "for s in sockets: selector.register(s, selectors.EVENT_WRITE)\n"
              "while pending and time.monotonic() - started < 30:\n"
              "    for key, _ in selector.select(timeout=1):\n"
              "        selector.unregister(key.fileobj); pending -= 1\n"
              "        opened += key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0\n"
              "print('opened', opened, flush=True)\n"
              "while time.monotonic() - started < 120:\n"
              "    for s in sockets:\n"
              "        try: s.send(b'G')\n"
              "        except OSError: pass\n"
              "    time.sleep(2)\n")
    flood = subprocess.Popen([*OTHER_USER, "/usr/bin/python3", "-c", script], stdout=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, text=True)
    try:
        opened = int(flood.stdout.readline().split()[1])
        assert opened > 1024, f"the other user opened only {opened} connections"
        before = desktop.cpu_seconds(window.pid)
        time.sleep(5)
        used = desktop.cpu_seconds(window.pid) - before
        assert used < 0.25, f"the app used {used:.2f}s of CPU in 5s under the flood"
        go.touch()
        window.wait_for_text("You’re Signed In")
        assert [e["status"] for e in session.browser_events("loopback")] == [200]
    finally:
        flood.terminate()
        flood.wait(timeout=10)
