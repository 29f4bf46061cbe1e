"""The desktop integration's sources as app stores and desktops read them: the validators Flathub and
distributions run, one version and one application ID everywhere, the screenshots, the licence. The
checks that judge a file are also run on broken copies, each of which they must refuse."""
import re
import shutil
import xml.etree.ElementTree as ElementTree

import checks
from checks import REPO, run


def test_desktop_file_validates(desktop_src):
    assert checks.desktop_problems(desktop_src) is None


def test_metainfo_validates_with_appstreamcli(metainfo_src, app_id):
    problems = checks.appstream_problems(metainfo_src, app_id)
    assert problems is None, problems


def test_the_metainfos_newest_release_is_the_programs_version(metainfo_src):
    problems = checks.release_problems(metainfo_src, REPO)
    assert problems is None, problems


def test_the_metainfos_links_lead_to_the_repository_the_app_id_names(metainfo_src, app_id):
    problems = checks.url_problems(metainfo_src, app_id)
    assert problems is None, problems


def test_a_version_bumped_only_in_version_swift_fails_the_release_check(metainfo_src, tmp_path):
    source = (REPO / "Sources" / "AuthBase" / "Version.swift").read_text()
    bumped = tmp_path / "Sources" / "AuthBase" / "Version.swift"
    bumped.parent.mkdir(parents=True)
    bumped.write_text(re.sub(r'(static let current = ")[^"]*"', r'\g<1>9.9.9"', source))
    assert checks.release_problems(metainfo_src, tmp_path) is not None


def test_a_newer_release_only_in_the_metainfo_fails_the_release_check(metainfo_src, tmp_path):
    newer = tmp_path / "newer-release.xml"
    newer.write_text(metainfo_src.read_text().replace(
        "<release ", '<release date="2099-01-01" version="9.9.9"/>\n    <release ', 1))
    assert checks.release_problems(newer, REPO) is not None


def test_a_homepage_on_another_repository_fails_the_code_host_check(metainfo_src, app_id, tmp_path):
    other = tmp_path / "other-homepage.xml"
    other.write_text(re.sub(r'<url type="homepage">[^<]*</url>',
                            '<url type="homepage">https://github.com/portalauth/portal-sign-in-linux</url>',
                            metainfo_src.read_text()))
    assert checks.url_problems(other, app_id) is not None


def test_an_info_level_finding_fails_the_appstream_check(metainfo_src, app_id, tmp_path):
    dotted = tmp_path / "info-message.xml"
    dotted.write_text(re.sub(r"<summary>([^<]*)</summary>", r"<summary>\1.</summary>", metainfo_src.read_text()))
    assert checks.appstream_problems(dotted, app_id) is not None


def test_the_gsettings_schema_compiles_strictly(schema_src, tmp_path):
    shutil.copy(schema_src, tmp_path)
    status, output = run("glib-compile-schemas", "--strict", "--dry-run", str(tmp_path))
    assert status == 0, output


def test_the_desktop_file_launches_portal_sign_in_with_the_uri(desktop_src):
    assert checks.desktop_key(desktop_src, "Exec") == "portal-sign-in %u"


def test_the_desktop_file_claims_the_redirect_scheme(desktop_src, layout):
    assert checks.desktop_key(desktop_src, "MimeType") == layout["PORTAL_SCHEME_MIME"] + ";"


def test_the_desktop_file_has_startup_notify(desktop_src):
    assert checks.desktop_key(desktop_src, "StartupNotify") == "true"


# --- one application ID everywhere ------------------------------------------------------------

def test_the_metainfo_id_is_the_app_id(metainfo_src, app_id):
    assert f"<id>{app_id}</id>" in metainfo_src.read_text()


def test_the_metainfo_launchable_is_the_desktop_file(metainfo_src, layout):
    assert f'<launchable type="desktop-id">{layout["PORTAL_DESKTOP_NAME"]}</launchable>' in metainfo_src.read_text()


def test_the_metainfo_provides_the_redirect_scheme(metainfo_src, layout):
    assert f'<mediatype>{layout["PORTAL_SCHEME_MIME"]}</mediatype>' in metainfo_src.read_text()


def test_the_schema_id_is_the_app_id(schema_src, app_id):
    assert f'<schema id="{app_id}" path="/io/github/portalauth/SignIn/">' in schema_src.read_text()


def test_the_desktop_icon_is_the_app_id(desktop_src, app_id):
    assert checks.desktop_key(desktop_src, "Icon") == app_id


def test_the_icons_are_named_after_the_app_id(app_id):
    assert (REPO / "data" / "icons" / "hicolor" / "scalable" / "apps" / f"{app_id}.svg").is_file()
    assert (REPO / "data" / "icons" / "hicolor" / "symbolic" / "apps" / f"{app_id}-symbolic.svg").is_file()


def test_the_metainfo_screenshots_are_committed_small_and_linked_from_the_release_tag(metainfo_src, version):
    """Every screenshot the metainfo names is committed where its URL points: data/screenshots/ at
    the release tag of the program's version (Flathub takes a tag or commit, never a branch), under
    the repository the app ID names; each at most 1000×700."""
    prefix = f"https://raw.githubusercontent.com/portalauth/SignIn/v{version}/data/screenshots/"
    urls = re.findall(r"<image>([^<]+)</image>", metainfo_src.read_text())
    assert urls, "the metainfo names no screenshots"
    for url in urls:
        assert url.startswith(prefix) and url.endswith(".png"), f"unexpected screenshot URL: {url} (want {prefix}<name>.png)"
        image = REPO / "data" / "screenshots" / url.rsplit("/", 1)[1]
        assert image.is_file() and image.read_bytes()[1:4] == b"PNG", f"{image} is missing or not a PNG"
        status, size = run("identify", "-format", "%w %h", str(image))
        width, height = (int(number) for number in size.split())
        assert status == 0 and width <= 1000 and height <= 700, f"{image} is {width}×{height}, larger than 1000×700"


def test_every_metainfo_screenshot_has_a_caption_under_50_characters(metainfo_src):
    shots = ElementTree.parse(metainfo_src).getroot().findall("screenshots/screenshot")
    for shot in shots:
        caption = shot.findtext("caption") or ""
        assert caption and len(caption) < 50, f"caption '{caption}' is empty or not under 50 characters"


def test_the_licence_is_mit_as_the_metainfo_says(metainfo_src):
    assert re.search(r"^MIT License", (REPO / "LICENSE").read_text(), re.MULTILINE)
    assert "<project_license>MIT</project_license>" in metainfo_src.read_text()


def app_sends_notifications():
    """Whether the app's sources send a desktop notification (GNotification)."""
    return any("g_application_send_notification" in path.read_text() for path in (REPO / "Sources" / "SignInApp").rglob("*.swift"))


def test_the_desktop_file_says_whether_the_app_sends_notifications(desktop_src):
    """GNOME lists an app under Settings → Notifications only when its desktop file says it sends them."""
    says = checks.desktop_key(desktop_src, "X-GNOME-UsesNotifications") == "true"
    assert app_sends_notifications(), "the app no longer sends notifications: drop X-GNOME-UsesNotifications"
    assert says, "the app sends notifications, but the desktop file lacks X-GNOME-UsesNotifications=true"


def test_the_content_rating_says_sign_in_shares_who_you_are(metainfo_src):
    """Signing in hands the account the person chose (and its email address or user name) to Portal
    or Turnkey: OARS 1.1's social-info and social-contacts, at their only level that says so."""
    rating = ElementTree.parse(metainfo_src).getroot().find("content_rating")
    assert rating is not None and rating.get("type") == "oars-1.1"
    attributes = {node.get("id"): (node.text or "").strip() for node in rating.findall("content_attribute")}
    assert attributes.get("social-info") == "intense", attributes
    assert attributes.get("social-contacts") == "intense", attributes


def about_facts():
    """The constants of Sources/SignInApp/App/AboutFacts.swift, what About shows."""
    text = (REPO / "Sources" / "SignInApp" / "App" / "AboutFacts.swift").read_text()
    return dict(re.findall(r'static let (\w+) = "([^"]*)"', text))


def test_about_names_the_metainfos_developer_homepage_and_bug_tracker(metainfo_src):
    root = ElementTree.parse(metainfo_src).getroot()
    facts = about_facts()
    assert facts.get("developerName") == root.findtext("developer/name").strip()
    urls = {url.get("type"): url.text.strip() for url in root.findall("url")}
    assert facts.get("website") == urls["homepage"]
    assert facts.get("issueTracker") == urls["bugtracker"]
