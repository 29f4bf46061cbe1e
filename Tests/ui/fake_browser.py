#!/usr/bin/python3
"""A scripted "web browser" for the UI tests, registered as the default http/https handler.

GIO starts it with the authorize URL the app opened. It fills the emulator's fake Google/Apple page
the way the test asked (control file in PORTAL_TEST_BROWSER_CONTROL: {"email", "action":
"continue"|"cancel"|"hold", "share": "share"|"hide", "deliver_times": N, "save_to": PATH, "tamper":
{PARAM: VALUE}, "loopback_after": PATH}), follows
the redirects to the app's custom-scheme redirect and hands that to the desktop with `gio open`, as a
real browser does (or, with save_to, leaves it in a file, as a browser that keeps custom schemes to itself).
A loopback redirect (http://127.0.0.1:PORT/PATH, the PORTAL_REDIRECT_URL the app was given) is an
ordinary http redirect: it is followed with a GET, and the page the app's listener answers is logged.
With loopback_after, the browser stops just before that GET ("paused") until the file PATH exists: a
tab left open that finishes later.

"tamper" replaces query parameters of the URL the app opened (a code_challenge or nonce that is not
the app's), as a page or extension that rewrites links would.

It logs events as JSON lines to PORTAL_TEST_BROWSER_LOG: paths and counts only, never a URL's query,
because the final redirect carries a single-use grant.
"""
import html.parser
import json
import os
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def log(event, **fields):
    path = os.environ.get("PORTAL_TEST_BROWSER_LOG")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps({"event": event, **fields}) + "\n")


def control():
    path = os.environ.get("PORTAL_TEST_BROWSER_CONTROL")
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as source:
            return json.load(source)
    return {}


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # the 3xx comes back as an HTTPError, and we follow it ourselves


class FormReader(html.parser.HTMLParser):
    """Reads the first form: its action, method, hidden fields and which radio options exist."""

    def __init__(self):
        super().__init__()
        self.action = None
        self.method = "get"
        self.hidden = {}
        self.radios = {}
        self.in_form = False
        self.done = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form" and not self.done:
            self.in_form = True
            self.action = attributes.get("action", "")
            self.method = attributes.get("method", "get").lower()
        elif tag == "input" and self.in_form:
            kind = attributes.get("type", "text")
            name = attributes.get("name")
            if kind == "hidden" and name:
                self.hidden[name] = attributes.get("value", "")
            elif kind == "radio" and name:
                self.radios.setdefault(name, []).append(attributes.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "form" and self.in_form:
            self.in_form = False
            self.done = True


def fetch(opener, url, data=None):
    request = urllib.request.Request(url, data=data)
    try:
        response = opener.open(request, timeout=15)
        return response.status, response.headers, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers, answer.read().decode("utf-8", "replace")


def deliver(uri, times):
    scheme = urllib.parse.urlsplit(uri).scheme
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(uri).query)
    for attempt in range(times):
        # No pipes: a portal-sign-in that gio starts (cold start) would inherit them and keep them open.
        result = subprocess.run(["gio", "open", uri], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, timeout=30)
        log("delivered", scheme=scheme, has_token="token" in query, has_error="error" in query,
            has_code="code" in query, has_id_token="id_token" in query, has_state="state" in query,
            attempt=attempt + 1, exit_status=result.returncode)
        time.sleep(0.5)


def loopback_port():
    """The port of the app's loopback redirect URL, when the test configured one (PORTAL_REDIRECT_URL)."""
    redirect = urllib.parse.urlsplit(os.environ.get("PORTAL_REDIRECT_URL", ""))
    return redirect.port if redirect.scheme == "http" else None


def tampered(url, replacements):
    parts = urllib.parse.urlsplit(url)
    query = [(name, replacements.get(name, value)) for name, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def walk(start_url, wanted):
    """Goes from start_url through the provider's pages as the person `wanted` describes would (its
    email, action and share; a pause before the app's loopback address with loopback_after) and
    says where it ended, with the URL, status and page there: "app" (the URL is the custom-scheme
    redirect to the app), "loopback" (the app's loopback listener answered) or "stuck" (status None
    after too many steps). bench/appdriver.py mints its redirects with it too."""
    # A browser trusts what the system does plus, here, the company CA the app was given (https tests).
    context = ssl.create_default_context(cafile=os.environ.get("PORTAL_CA_FILE") or None)
    opener = urllib.request.build_opener(NoRedirects(), urllib.request.HTTPSHandler(context=context))
    action = wanted.get("action", "continue")
    url, data = start_url, None
    for _ in range(12):
        status, headers, body = fetch(opener, url, data)
        data = None
        if status in (301, 302, 303, 307, 308):
            target = urllib.parse.urljoin(url, headers["Location"])
            if urllib.parse.urlsplit(target).scheme not in ("http", "https"):
                return "app", target, status, body
            if wanted.get("loopback_after") and urllib.parse.urlsplit(target).port == loopback_port():
                log("paused", path=urllib.parse.urlsplit(target).path)
                deadline = time.monotonic() + 120
                while not os.path.exists(wanted["loopback_after"]) and time.monotonic() < deadline:
                    time.sleep(0.1)
            url = target
            continue
        form = FormReader()
        form.feed(body)
        if status == 200 and form.action is not None:
            fields = dict(form.hidden)
            fields["email"] = wanted.get("email", "alice@example.com")
            fields["custom_email"] = ""
            fields["action"] = action
            if "share" in form.radios:
                fields["share"] = wanted.get("share", "share")
            log("submitted", path=urllib.parse.urlsplit(urllib.parse.urljoin(url, form.action)).path,
                action=action, share=fields.get("share"))
            url = urllib.parse.urljoin(url, form.action)
            data = urllib.parse.urlencode(fields).encode()
            continue
        if urllib.parse.urlsplit(url).hostname == "127.0.0.1" and urllib.parse.urlsplit(url).port == loopback_port():
            return "loopback", url, status, body
        return "stuck", url, status, body
    return "stuck", url, None, ""


def run(start_url):
    wanted = control()
    action = wanted.get("action", "continue")
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(start_url).query))
    # Names of the parameters only (and whether PKCE is S256): values may be single-use secrets.
    log("opened", path=urllib.parse.urlsplit(start_url).path, action=action, parameters=sorted(query),
        code_challenge_method=query.get("code_challenge_method"), launched_by=os.environ.get("PORTAL_TEST_LAUNCHER"),
        sandboxed=os.path.exists("/.flatpak-info"))
    if wanted.get("tamper"):
        start_url = tampered(start_url, wanted["tamper"])
        log("tampered", parameters=sorted(wanted["tamper"]))
    if action == "hold":
        return  # a person who never finishes in the browser
    ended, url, status, body = walk(start_url, wanted)
    if ended == "app" and wanted.get("save_to"):
        # A browser that does not hand custom schemes to the desktop: the person copies the
        # address instead (the test pastes it into the app).
        with open(os.open(wanted["save_to"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as out:
            out.write(url)
        log("saved", scheme=urllib.parse.urlsplit(url).scheme)
    elif ended == "app":
        deliver(url, int(wanted.get("deliver_times", 1)))
    elif ended == "loopback":
        # The app's loopback redirect (http://127.0.0.1:PORT/PATH): what its listener answered.
        log("loopback", status=status, path=urllib.parse.urlsplit(url).path,
            closes_tab="You can close this tab" in body or "close this tab" in body.lower(),
            external="src=" in body or "<script" in body)
    elif status is None:
        log("stuck", reason="too many steps")
    else:
        log("stuck", status=status, path=urllib.parse.urlsplit(url).path)


if __name__ == "__main__":
    try:
        run(sys.argv[1])
    except Exception as error:  # the test reads the log; a traceback here would go nowhere
        log("crashed", error=type(error).__name__)
        raise
