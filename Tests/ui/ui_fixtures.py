"""The pytest plugin of the suites that run the app (Tests/ui, keepassxc, kwallet, sandbox; their run
scripts load it with `-p ui_fixtures`): the app installed into a temporary prefix, temporary XDG
dirs with a scripted browser as the default http(s) handler, and the emulator on a free port."""
import json
import os
import re
import select
import shutil
import ssl
import signal
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

# The UI suite's helpers, and the Secret Service ones the keyring suites share.
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(1, str(Path(__file__).parents[1] / "secret_service"))
import desktop  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
APP_ID = "io.github.portalauth.SignIn"
SCHEME = "io.github.portalauth.signin"
FAKE_BROWSER = Path(__file__).with_name("fake_browser.py")
SCREENSHOTS = Path(os.environ.get("PORTAL_SCREENSHOT_DIR", REPO / "build" / "screenshots"))
# The app's and the emulator's logs, kept for script/check-no-secrets (script/run-suites scans them).
LOGS = Path(os.environ.get("PORTAL_TEST_LOG_DIR", REPO / "build" / "test-logs")) / "ui"


@pytest.fixture
def test_logs(request):
    """This test's log folder: build/test-logs/ui/<test name>/ (emptied first)."""
    folder = LOGS / re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture(scope="session")
def certificates(tmp_path_factory):
    """The https tests' throwaway CA and certificates (script/make-test-certificates)."""
    folder = tmp_path_factory.mktemp("certificates")
    subprocess.run([str(REPO / "script" / "make-test-certificates"), str(folder)], check=True)
    return folder


@pytest.fixture(scope="session")
def prefix(tmp_path_factory):
    """The app installed as a user would, with script/install; once for all of Tests/ui/run's parts
    and, under script/run-suites, for every suite (PORTAL_UI_PREFIX)."""
    if os.environ.get("PORTAL_UI_PREFIX"):
        return Path(os.environ["PORTAL_UI_PREFIX"])
    root = tmp_path_factory.mktemp("prefix")
    env = dict(os.environ, PORTAL_BUILD_CONFIG="debug")
    subprocess.run([str(REPO / "script" / "install"), "--prefix", str(root), "--no-default-handler"], cwd=REPO,
                   env=env, check=True, stdout=subprocess.DEVNULL)
    return root


class Emulator:
    """The emulator, started by script/start-emulator (the launcher every harness uses); its request
    log goes to a file the secret scan reads. With `tls` (a certificate name from the `certificates`
    folder) it serves https, and the harness trusts `ca_file`. Its administration answers only the
    admin token, read from the emulator's token file (`admin_token`, the one place the UI tests
    learn it)."""

    def __init__(self, executable, log, arguments=(), tls=None, certificates=None):
        tls_arguments = []
        self.ca_file = None
        if tls:
            tls_arguments = ["--tls-cert", str(certificates / f"{tls}.pem"), "--tls-key", str(certificates / f"{tls}.key")]
            self.ca_file = str(certificates / "ca.pem")
        started = subprocess.run([str(REPO / "script" / "start-emulator"), "--binary", str(executable), "--log", str(log),
                                  "--owner", str(os.getpid()), "--", *tls_arguments, *arguments],
                                 capture_output=True, text=True, timeout=60)
        assert started.returncode == 0, f"the emulator did not start: {started.stderr}"
        first_line, self.admin_token_file = started.stdout.splitlines()
        self.base_url, pid = first_line.split()
        self.pid = int(pid)
        self.log = log
        # Plain http: the bare host (the app adds http:// for loopback); https: the whole base URL.
        self.host = self.base_url if tls else self.base_url[len("http://"):]
        self.context = ssl.create_default_context(cafile=self.ca_file) if tls else None

    @property
    def admin_token(self):
        """This run's admin token, from the file the emulator wrote it to (mode 0600)."""
        return Path(self.admin_token_file).read_text().strip()

    def _open(self, request):
        return urllib.request.urlopen(request, timeout=10, context=self.context)

    def admin(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base_url}/emulator/v1/{path}", data=data,
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {self.admin_token}"},
                                         method="GET" if body is None else "POST")
        with self._open(request) as response:
            return json.load(response)["data"]

    def reset(self):
        """Back to a fresh start (POST /emulator/v1/reset); the signing keys stay."""
        assert self.admin("reset", {}) == {"reset": True}

    def fault(self, path, kind, **settings):
        """Injects a fault for the next request to `path` (`kind` status, hang or drop)."""
        return self.admin("faults", {"path": path, "kind": kind, **settings})

    def api(self, path):
        request = urllib.request.Request(f"{self.base_url}{path}",
                                         headers={"x-portal-auth-environment-id": "local-dev",
                                                  "Accept": "application/json"})
        with self._open(request) as response:
            return json.load(response)["data"]

    def requests(self, method, path):
        return [entry for entry in self.admin("requests") if entry["method"] == method and entry["path"] == path]

    def stop(self):
        """SIGTERM, waiting (event-driven, on a pidfd) for the emulator to exit; SIGKILL after 10 s."""
        try:
            handle = os.pidfd_open(self.pid)
        except ProcessLookupError:
            return
        try:
            os.kill(self.pid, signal.SIGTERM)
            if not select.select([handle], [], [], 10)[0]:
                os.kill(self.pid, signal.SIGKILL)
        finally:
            os.close(handle)


@pytest.fixture
def emulator_arguments():
    """Extra emulator arguments; a test module overrides this fixture (e.g. --config FILE)."""
    return ()


@pytest.fixture(scope="session")
def shared_emulator(prefix):
    """The run's emulator for the tests that take it as it starts (no arguments); `emulator` resets
    it for each of them. Its request log: build/test-logs/ui/emulator-PID.log (PID: this pytest's, as
    the UI suite's parts run side by side)."""
    LOGS.mkdir(parents=True, exist_ok=True)
    server = Emulator(prefix / "bin" / "portal-auth-emulator", LOGS / f"emulator-{os.getpid()}.log")
    yield server
    server.stop()


@pytest.fixture
def emulator(request, prefix, test_logs, emulator_arguments):
    """The emulator as if just started: the run's shared one reset (users re-seeded, everything issued,
    the faults and the request log forgotten), or, for a module that gives it arguments, one of its
    own, its log in the test's folder."""
    if not emulator_arguments:
        server = request.getfixturevalue("shared_emulator")
        server.reset()
        yield server
        return
    server = Emulator(prefix / "bin" / "portal-auth-emulator", test_logs / "emulator.log", emulator_arguments)
    yield server
    server.stop()


class Session:
    """One test's desktop: its XDG dirs, browser, app launches and screenshots."""

    def __init__(self, root, prefix, emulator, name, logs, backend="portal"):
        self.root = root
        self.logs = logs
        self.backend = backend
        self.prefix = prefix
        self.emulator = emulator
        self.name = name
        self.control = root / "browser-control.json"
        self.browser_log = root / "browser-log.jsonl"
        data_home, config_home, state_home = root / "data", root / "config", root / "state"
        (data_home / "applications").mkdir(parents=True)
        config_home.mkdir()
        self.env = dict(os.environ,
                        XDG_DATA_HOME=str(data_home), XDG_CONFIG_HOME=str(config_home), XDG_STATE_HOME=str(state_home),
                        XDG_DATA_DIRS=f"{prefix / 'share'}:/usr/local/share:/usr/share",
                        PATH=f"{prefix / 'bin'}:{os.environ['PATH']}",
                        PORTAL_API_HOST=emulator.host,
                        # The emulator is chosen explicitly (both backends, its local-dev IDs), as
                        # script/run does: nothing is assumed for an app that is not configured.
                        PORTAL_AUTH_EMULATOR_HOST=emulator.host,
                        PORTAL_SESSION_KEY=f"ui-test-{uuid.uuid4().hex[:12]}",
                        PORTAL_SIGN_IN_BACKEND=backend,
                        TURNKEY_AUTH_PROXY_URL=f"{emulator.base_url}/turnkey/auth-proxy",
                        PORTAL_TEST_BROWSER_CONTROL=str(self.control),
                        PORTAL_TEST_BROWSER_LOG=str(self.browser_log),
                        GSETTINGS_BACKEND="memory")
        if emulator.ca_file:
            self.env["PORTAL_CA_FILE"] = emulator.ca_file   # the app's documented extra CA; the fake browser trusts it too
        self.env.pop("PORTAL_COLOR_SCHEME", None)
        # The tests set the product-wide variables by their older names (still read, as documented):
        # a new name exported in the shell would win over them.
        for name in ("PORTAL_AUTH_ENVIRONMENT_ID", "TURNKEY_AUTH_PROXY_CONFIG_ID", "TURNKEY_API_URL", "TURNKEY_ORGANIZATION_ID", "TURNKEY_SESSION_KEY",
                     "PORTAL_TURNKEY_REFRESH_AT", "PORTAL_AUTH_CA_FILE", "PORTAL_AUTH_HTTP_TIMEOUT_SECONDS", "PORTAL_AUTH_DEBUG"):
            self.env.pop(name, None)
        self.clear_turnkey_keyring()
        (data_home / "applications" / "portal-test-browser.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=Test Browser\n"
            f"Exec=/usr/bin/python3 {FAKE_BROWSER} %u\nTerminal=false\n"
            "MimeType=x-scheme-handler/http;x-scheme-handler/https;\n")
        subprocess.run(["update-desktop-database", str(data_home / "applications")], env=self.env, check=True)
        for scheme, handler in (("http", "portal-test-browser.desktop"), ("https", "portal-test-browser.desktop"),
                                (SCHEME, f"{APP_ID}.desktop")):
            subprocess.run(["xdg-mime", "default", handler, f"x-scheme-handler/{scheme}"], env=self.env, check=True)
            query = subprocess.run(["xdg-mime", "query", "default", f"x-scheme-handler/{scheme}"],
                                   env=self.env, capture_output=True, text=True)
            assert query.stdout.strip() == handler, f"{handler} is not the {scheme} handler"
        self.processes = []
        # Wrappers (a private bus's dbus-run-session) end when the app does, and only then stop
        # what they started: a wrapper sent SIGTERM itself leaves its dbus-daemon running.
        self.wrappers = set()
        self.browse(email="alice@example.com", action="continue")
        self.enable_dbus_activation()

    # -- D-Bus activation ----------------------------------------------------------------------
    ACTIVATION_KEYS = ("DISPLAY", "WAYLAND_DISPLAY", "PATH", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_DIRS",
                       "PORTAL_API_HOST", "PORTAL_AUTH_EMULATOR_HOST", "PORTAL_SESSION_KEY", "PORTAL_SIGN_IN_BACKEND", "TURNKEY_AUTH_PROXY_URL",
                       "PORTAL_TEST_BROWSER_CONTROL",
                       "PORTAL_TEST_BROWSER_LOG", "GSETTINGS_BACKEND", "GDK_BACKEND", "GTK_A11Y", "NO_AT_BRIDGE",
                       "PORTAL_DEBUG", "PORTAL_CA_FILE", "PORTAL_HTTP_TIMEOUT_SECONDS",
                       "PORTAL_AUTH_DEBUG", "PORTAL_AUTH_CA_FILE", "PORTAL_AUTH_HTTP_TIMEOUT_SECONDS")

    def enable_dbus_activation(self):
        """The desktop starts the app over D-Bus (DBusActivatable=true): the session bus must find the
        app's service file, and the app it starts gets the bus's activation environment, not ours."""
        services = Path(os.environ["XDG_DATA_HOME"]) / "dbus-1" / "services"
        services.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.prefix / "share" / "dbus-1" / "services" / f"{APP_ID}.service", services / f"{APP_ID}.service")
        subprocess.run(["dbus-update-activation-environment",
                        *[f"{key}={self.env[key]}" for key in self.ACTIVATION_KEYS if key in self.env]], check=True)

    # -- the keyring -------------------------------------------------------------------------
    TURNKEY_SCHEMAS = ("io.github.portalauth.TurnkeySession", "io.github.portalauth.TurnkeyKey",
                       "io.github.portalauth.TurnkeyPending")

    def clear_turnkey_keyring(self):
        """Turnkey sessions are listed per Auth Proxy config (every test uses the emulator's
        local-dev): each test starts with none, so another test's sessions never show."""
        for schema in self.TURNKEY_SCHEMAS:
            subprocess.run(["secret-tool", "clear", "xdg:schema", schema], check=False)

    def turnkey_items(self, schema):
        """The attributes of the keyring's items of `schema` (never their secrets). secret-tool prints
        each item's path and secret on stdout and its attributes on stderr, in order."""
        for _ in range(self.READS):
            items = self._turnkey_items_once(schema)
            if items:
                return items
        return items

    def _turnkey_items_once(self, schema):
        result = subprocess.run(["secret-tool", "search", "--all", "--unlock", "xdg:schema", schema],
                                capture_output=True, text=True)
        paths = [line for line in result.stdout.splitlines() if line.startswith("[")]
        items, current = [], None
        for line in result.stderr.splitlines():
            if not line.startswith("attribute."):
                continue
            name, _, value = line[len("attribute."):].partition(" = ")
            if current is None or name in current:
                current = {}
                items.append(current)
            current[name] = value
        assert len(items) == len(paths), f"secret-tool listed {len(paths)} items but {len(items)} attribute sets"
        return items

    def mint_redirect(self, email, provider="google"):
        """A provider sign-in finished in the browser without the app asking for it: the redirect
        (with its single-use grant) as the browser ended on it. Never printed."""
        query = urllib.parse.urlencode({"redirectUrl": f"{SCHEME}://auth/callback"}, quote_via=urllib.parse.quote, safe="")
        authorize = self.emulator.api(f"/api/v3/auth/oauth/urls?{query}")[provider]
        saved = self.root / f"minted-{uuid.uuid4().hex[:8]}.txt"
        control = json.loads(self.control.read_text())
        self.browse(email=email, action="continue", save_to=str(saved))
        subprocess.run(["/usr/bin/python3", str(FAKE_BROWSER), authorize], env=self.env, check=True, timeout=60)
        self.control.write_text(json.dumps(control))
        return self.take_saved(saved)

    @staticmethod
    def take_saved(path):
        """The redirect a browser saved (it holds a grant): read once, then deleted, so no grant is
        left in the session's files for the secret scan to find."""
        text = Path(path).read_text()
        Path(path).unlink()
        return text

    # -- the scripted browser ------------------------------------------------------------------
    def browse(self, **settings):
        self.control.write_text(json.dumps(settings))

    def browser_events(self, event=None):
        if not self.browser_log.exists():
            return []
        events = [json.loads(line) for line in self.browser_log.read_text().splitlines() if line.strip()]
        return [e for e in events if event is None or e["event"] == event]

    # -- the app -----------------------------------------------------------------------------
    def launch(self, *arguments, wrapper=(), unset=(), **extra_env):
        """Starts the app (under `wrapper`, e.g. a private bus) without the session's variables named in
        `unset`, with `extra_env`; its output goes to this test's log folder."""
        env = dict({key: value for key, value in self.env.items() if key not in unset}, **extra_env)
        log = open(self.logs / f"app-{len(self.processes)}.log", "w")
        process = subprocess.Popen([*wrapper, str(self.prefix / "bin" / "portal-sign-in"), *arguments], env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        if wrapper:
            self.wrappers.add(process.pid)
        # Under a wrapper the app is the wrapper's child: any portal-sign-in will do.
        wanted = None if wrapper else process.pid
        try:
            application = desktop.wait_until(lambda: desktop.find_application(wanted), timeout=60,
                                             what="portal-sign-in on the accessibility bus")
        except AssertionError as error:
            raise AssertionError(f"{error}; exit status {process.poll()}; the app's log ends with:\n"
                                 + self.log_tail(log.name) + "\n" + self.display_state(env)) from None
        return desktop.AppWindow(application)

    @staticmethod
    def display_state(env):
        """Whether the test display answers now, and which X servers run: a "cannot open display"
        seen once (a neighbouring session's server on the same machine?) is told apart from a dead one.
        On Wayland: whether the compositor's socket takes a connection."""
        if desktop.WAYLAND:
            socket_path = Path(env["XDG_RUNTIME_DIR"]) / env["WAYLAND_DISPLAY"]
            probe = subprocess.run(["/usr/bin/python3", "-c", "import socket, sys; "
                                    "socket.socket(socket.AF_UNIX).connect(sys.argv[1])", str(socket_path)],
                                   capture_output=True, text=True)
            running = subprocess.run(["pgrep", "-a", desktop.COMPOSITOR], capture_output=True, text=True).stdout.strip()
            return (f"{desktop.COMPOSITOR} socket {socket_path} takes a connection: {probe.returncode == 0}; "
                    f"compositors running:\n{running}")
        answer = subprocess.run(["xdotool", "getdisplaygeometry"], env=env, capture_output=True, text=True)
        servers = subprocess.run(["pgrep", "-a", "Xvfb"], capture_output=True, text=True).stdout.strip()
        return (f"display {env.get('DISPLAY')} now answers: {answer.returncode == 0} "
                f"({(answer.stdout or answer.stderr).strip()}); X servers running:\n{servers}")

    def app_log(self, index=-1):
        """What a launched app wrote so far (its log may hold debug lines, never a secret)."""
        logs = sorted(self.logs.glob("app-*.log"), key=lambda path: int(path.stem.split("-")[1]))
        return logs[index].read_text(errors="replace") if logs else ""

    # kwalletd5 5.103 now and then answers a client's first call with nothing, or refuses its
    # session (a Diffie-Hellman key that starts with a zero byte): secret-tool, a client of its own,
    # then reads nothing although the item is there. Under KWallet a read that finds nothing is
    # asked again, so a glitch of the wallet's is not taken for the app's doing.
    READS = 3 if os.environ.get("PORTAL_SECRET_SERVICE") == "KWallet" else 1

    def stored_session(self):
        """The keyring item of this test's session key, read with secret-tool (compared, never printed)."""
        for _ in range(self.READS):
            found = subprocess.run(["secret-tool", "lookup", "--", "auth-environment-id", "local-dev",
                                    "session-key", self.env["PORTAL_SESSION_KEY"]], capture_output=True, text=True)
            if found.returncode == 0:
                return found.stdout
        return None

    @staticmethod
    def log_tail(path, lines=30):
        """The end of an app log, with anything shaped like a grant, token or JWT masked."""
        text = "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
        return re.sub(r"(pg_|pst_)[A-Za-z0-9_-]+|eyJ[A-Za-z0-9_.+/=-]+|otpauth://\S+|[A-Z2-7]{32}", "[redacted]", text)

    def attach(self):
        """The app started by the desktop (not by the test), e.g. by `gio open URI`."""
        application = desktop.wait_until(desktop.find_application, timeout=60,
                                         what="portal-sign-in on the accessibility bus")
        return desktop.AppWindow(application)

    def gio_open(self, uri):
        # No pipes: an app that gio starts would inherit them and keep them open.
        return subprocess.run(["gio", "open", uri], env=self.env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30).returncode

    def quit_app(self):
        """Ends every portal-sign-in this test started (by the test or by the desktop)."""
        pids = {p.pid for p in self.processes if p.poll() is None and p.pid not in self.wrappers}
        running = desktop.find_application()
        if running is not None:
            try:
                pids.add(running.get_process_id())
            except Exception:
                pass
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        desktop.wait_until(lambda: desktop.find_application() is None, timeout=20,
                           what="portal-sign-in to exit")

    def screenshot(self, name=None, title=None):
        return desktop.screenshot(name or self.name, str(SCREENSHOTS), title=title)


@pytest.fixture
def session(tmp_path, prefix, emulator, request, test_logs):
    current = Session(tmp_path, prefix, emulator, request.node.name, test_logs)
    yield current
    current.quit_app()


@pytest.fixture
def turnkey_session(tmp_path, prefix, emulator, request, test_logs):
    """A desktop whose app signs in to the emulator's Turnkey side (PORTAL_SIGN_IN_BACKEND=turnkey)."""
    current = Session(tmp_path, prefix, emulator, request.node.name, test_logs, backend="turnkey")
    yield current
    current.quit_app()
    current.clear_turnkey_keyring()
