"""The app over https, the path real users take: the emulator serves TLS with a certificate from a
throwaway test CA, which the app trusts only through its documented extra CA file (PORTAL_CA_FILE,
or the ca-file setting). Without it the server is refused, the person is told, and nothing is sent."""
import pytest

from ui_fixtures import Emulator

SIGN_IN = "Sign In to Portal"


@pytest.fixture
def emulator(prefix, test_logs, certificates):
    server = Emulator(prefix / "bin" / "portal-auth-emulator", test_logs / "emulator.log", tls="server",
                      certificates=certificates)
    yield server
    server.stop()


def test_signing_in_over_https_with_the_extra_ca(session, emulator):
    assert emulator.host.startswith("https://127.0.0.1:")
    window = session.launch()
    session.browse(email="alice@example.com", action="continue")
    window.click("Continue with Google")
    window.wait_for_text("You’re Signed In")
    assert [e["status"] for e in emulator.requests("POST", "/api/v3/auth/oauth/tokens")] == [200]
    assert session.stored_session() is not None


def test_an_untrusted_certificate_is_refused_and_nothing_is_sent(session, emulator):
    window = session.launch(PORTAL_CA_FILE="")   # blank: the system's CAs only, which do not know the test CA
    window.wait_for_text(SIGN_IN)
    window.click("Continue with Google")
    window.wait_for("label", contains="is not trusted", timeout=30)
    assert window.find("label", contains="Nothing was sent") is not None
    assert session.browser_events("opened") == [], "a browser opened for a server that was not trusted"
    assert emulator.admin("requests") == [], "a request reached the server over a connection that failed verification"
    assert session.stored_session() is None


def test_an_unreadable_ca_file_is_reported_and_nothing_is_sent(session, emulator, tmp_path):
    window = session.launch(PORTAL_CA_FILE=str(tmp_path / "no-such-ca.pem"))
    window.wait_for_text(SIGN_IN)
    window.click("Continue with Google")
    window.wait_for("label", contains="extra certificate authorities could not be read", timeout=30)
    assert session.browser_events("opened") == []
    assert emulator.admin("requests") == [], "a request went out without the trust it was configured with"
