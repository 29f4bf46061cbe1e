"""The seed pages' examples (Examples/), as a developer runs them: `your-own-oidc-provider` signs in to
the emulator's Turnkey with a token from the emulator's generic OpenID Connect issuer, through the
scripted browser, a loopback redirect and the real keyring. script/run-suites builds the examples
(PORTAL_EXAMPLES_BIN); run alone, this module builds them itself."""
import os
import subprocess
from pathlib import Path

import pytest

import desktop

REPO = Path(__file__).resolve().parents[2]
SESSIONS = "io.github.portalauth.TurnkeySession"
KEYS = "io.github.portalauth.TurnkeyKey"


@pytest.fixture(scope="module")
def examples():
    """The examples' build folder."""
    if os.environ.get("PORTAL_EXAMPLES_BIN"):
        return Path(os.environ["PORTAL_EXAMPLES_BIN"])
    subprocess.run(["swift", "build", "--package-path", str(REPO / "Examples")], check=True, stdout=subprocess.DEVNULL)
    built = subprocess.run(["swift", "build", "--package-path", str(REPO / "Examples"), "--show-bin-path"],
                           check=True, capture_output=True, text=True)
    return Path(built.stdout.strip())


def launch_example(session, examples, name, **extra_env):
    """Starts an example with the session's desktop and the emulator; its output goes to the test's logs."""
    log = open(session.logs / f"{name}.log", "w")
    process = subprocess.Popen([str(examples / name)], env=dict(session.env, **extra_env),
                               stdout=log, stderr=subprocess.STDOUT)
    session.processes.append(process)
    application = desktop.wait_until(lambda: desktop.find_application(process.pid, name=name), timeout=60,
                                     what=f"{name} on the accessibility bus")
    return process, desktop.AppWindow(application)


def test_your_own_oidc_provider_signs_in_with_a_key_from_create_key_pair(turnkey_session, emulator, examples):
    # The session chooses the emulator (PORTAL_AUTH_EMULATOR_HOST): the example's Turnkey URLs are the
    # production ones, which the SDK's desktop configuration replaces with the emulator's.
    environment = {name: value for name, value in turnkey_session.env.items()
                   if not name.startswith("TURNKEY_")}
    turnkey_session.env = environment
    process, window = launch_example(turnkey_session, examples, "your-own-oidc-provider",
                                     OIDC_ISSUER=f"{emulator.base_url}/idp/oidc")
    try:
        window.click("Continue with your own provider")
        shown = window.wait_for("label", contains="Signed in to organization", timeout=60)
        organization = shown.name.rsplit(" ", 1)[-1]

        # The browser went to the issuer's own sign-in page, the one provider the SDK has no helper for.
        assert [event["path"] for event in turnkey_session.browser_events("opened")] == ["/idp/oidc/authorize"]
        # Turnkey got one OIDC token and made (or found) the user's sub-organization: the one shown.
        logins = emulator.requests("POST", "/turnkey/auth-proxy/v1/oauth_login")
        signups = emulator.requests("POST", "/turnkey/auth-proxy/v1/signup_v2")
        assert len(logins) + len(signups) >= 1
        assert organization in [org["organizationId"] for org in emulator.admin("turnkey")["organizations"]]
        # The session is in the keyring under the page's session key, bound to the key
        # createKeyPair() made (its private key kept beside it).
        sessions = [item for item in turnkey_session.turnkey_items(SESSIONS) if item.get("session-key") == "main"]
        assert len(sessions) == 1, "the session is not in the keyring under 'main'"
        assert turnkey_session.turnkey_items(KEYS), "no session key in the keyring"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_sign_in_with_google_signs_in_to_the_local_portal_over_a_loopback_redirect(session, emulator, examples):
    # As a developer runs it beside script/run: PORTAL_AUTH_EMULATOR_HOST chooses the emulator, and the
    # example's redirect is a loopback one on a free port (RFC 8252), which the built-in environment takes.
    session.browse(email="alice@example.com", action="continue")
    process, window = launch_example(session, examples, "sign-in-with-google")
    try:
        window.click("Sign in with Google")
        shown = window.wait_for("label", contains="Signed in as end user", timeout=60)
        end_user = shown.name.rsplit(" ", 1)[-1]
        assert end_user == [u for u in emulator.admin("state")["users"] if u["email"] == "alice@example.com"][0]["endUserId"]
        assert len(session.browser_events("opened")) == 1
        # Portal built the provider's URL for the loopback redirect: it is on the environment's list.
        assert [r["status"] for r in emulator.requests("GET", "/api/v3/auth/oauth/urls")] == [200]
        # The grant came back over loopback and was exchanged once.
        assert [r["status"] for r in emulator.requests("POST", "/api/v3/auth/oauth/tokens")] == [200]
    finally:
        process.terminate()
        process.wait(timeout=10)
