"""What the data suite's tests share: the installed layout and version as script/install reads them
(script/lib/install-layout.sh, script/lib/version.sh), and the checks that the suite also runs on
broken copies to see them refuse (each returns None when the file passes, else what is wrong)."""
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LAYOUT_NAMES = ("PORTAL_APP_ID", "PORTAL_DOMAIN", "PORTAL_SCHEME_MIME", "PORTAL_DESKTOP_NAME", "PORTAL_DESKTOP_FILE",
                "PORTAL_METAINFO_FILE", "PORTAL_ICON_FILE", "PORTAL_SYMBOLIC_ICON_FILE", "PORTAL_SCHEMA_FILE",
                "PORTAL_DBUS_SERVICE_FILE", "PORTAL_MANIFEST")


def run(*command, **options):
    """The command's exit status and its output (stdout and stderr together)."""
    result = subprocess.run(command, cwd=options.pop("cwd", REPO), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, **options)
    return result.returncode, result.stdout


def read_layout():
    """The names script/install and script/uninstall use, read from the one file that holds them."""
    script = ("source script/lib/install-layout.sh; source script/lib/version.sh; "
              f"for name in {' '.join(LAYOUT_NAMES)}; do printf '%s=%s\\n' \"$name\" \"${{!name}}\"; done; "
              "echo \"executables=${PORTAL_EXECUTABLES[*]}\"; echo \"languages=$(portal_languages | tr '\\n' ' ')\"")
    status, output = run("bash", "-c", script)
    assert status == 0, output
    layout = dict(line.split("=", 1) for line in output.splitlines())
    layout["executables"] = layout["executables"].split()
    layout["languages"] = layout["languages"].split()
    return layout


def version_in(source_root):
    """The program's version as Sources/AuthBase/Version.swift under `source_root` says (version.sh)."""
    status, output = run("bash", "-c", "source script/lib/version.sh; portal_version",
                         env=dict(os.environ, PORTAL_SOURCE_ROOT=str(source_root)))
    return output.strip() if status == 0 else ""


def desktop_key(path, key):
    """The value of KEY (e.g. "Name[de]") in the file's [Desktop Entry] group, or ""."""
    group = None
    for line in Path(path).read_text().splitlines():
        if line.startswith("["):
            group = line
        elif group == "[Desktop Entry]" and line.startswith(key + "="):
            return line[len(key) + 1:]
    return ""


def desktop_problems(path):
    """desktop-file-validate prints nothing for a clean file."""
    status, output = run("desktop-file-validate", str(path))
    return output if status != 0 or output.strip() else None


def appstream_problems(path, app_id):
    """`appstreamcli validate --no-net --pedantic` must print no message at all, of any severity.
    Exactly two findings are let through, each named by tag and subject, because no metainfo can
    avoid them:
    - P cid-contains-uppercase-letter of the app ID: the ID is fixed by the design and must equal the
      GApplication's D-Bus name, desktop file and GSettings schema ("SignIn").
    - I unknown-tag developer, only while appstreamcli is older than 1.0 (Debian bookworm's 0.16):
      <developer id><name> is AppStream 1.0's tag, which Flathub requires; 1.0 in turn reports the
      older <developer_name> (developer-name-tag-deprecated) and a missing developer. From 1.0 on the
      finding is not let through."""
    status, output = run("appstreamcli", "validate", "--no-net", "--pedantic", str(path))
    allowed = [rf"^P: {re.escape(app_id)}:[0-9]+: cid-contains-uppercase-letter {re.escape(app_id)}$"]
    if re.search(r"^AppStream version: 0\.", run("appstreamcli", "--version")[1], re.MULTILINE):
        allowed.append(rf"^I: {re.escape(app_id)}:[0-9]+: unknown-tag developer$")
    # Everything but blank lines and the closing summary is a finding.
    unexpected = [line for line in output.splitlines()
                  if line.strip() and not re.match(r"^. Validation (was successful|failed)", line)
                  and not any(re.match(pattern, line) for pattern in allowed)]
    return output if status != 0 or unexpected else None


def metainfo_releases(path):
    """(version, date) of each <release>, in file order, read by an XML parser."""
    root = ElementTree.parse(path).getroot()
    return [(release.get("version", ""), release.get("date", release.get("timestamp", "")))
            for release in root.findall("./releases/release")]


def _version_key(version):
    """As `sort -V` orders versions: digit runs as numbers."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.findall(r"\d+|\D+", version)]


def release_problems(metainfo, source_root):
    """One version number: the metainfo's newest (first) release is the program's, none is higher,
    and it has a date."""
    version = version_in(source_root)
    if not version:
        return f"no version in {source_root}/Sources/AuthBase/Version.swift"
    releases = metainfo_releases(metainfo)
    if not releases:
        return "the metainfo has no <release>"
    newest = releases[0][0]
    highest = max((release[0] for release in releases), key=_version_key)
    if newest != version or highest != version:
        return f"Sources/AuthBase/Version.swift says {version}; the metainfo's newest release is {newest} (highest {highest})"
    if not releases[0][1]:
        return f"release {version} has no date"
    return None


def code_host_repo(app_id):
    """The app ID names its code host: io.github.OWNER.NAME is https://github.com/OWNER/NAME, and
    Flathub verifies the ID against it. None for a host this check does not know."""
    parts = app_id.split(".")
    if len(parts) != 4:
        return None
    hosts = {"io.github": "https://github.com", "io.gitlab": "https://gitlab.com", "io.codeberg": "https://codeberg.org",
             "page.codeberg": "https://codeberg.org"}
    host = hosts.get(".".join(parts[:2]))
    return f"{host}/{parts[2]}/{parts[3]}" if host else None


def url_problems(metainfo, app_id):
    """The project's links lead to the repository the app ID names: one homepage, bugtracker,
    vcs-browser and translate URL each, there or under it."""
    repo = code_host_repo(app_id)
    if repo is None:
        return f"{app_id} names no code host this check knows"
    urls = [(url.get("type", ""), (url.text or "").strip()) for url in ElementTree.parse(metainfo).getroot().findall("./url")]
    problems = []
    for kind in ("homepage", "bugtracker", "vcs-browser", "translate"):
        found = [url for url_kind, url in urls if url_kind == kind]
        if len(found) != 1:
            problems.append(f'want one <url type="{kind}">, found {len(found)}')
            continue
        url = found[0]
        if kind == "vcs-browser":
            good = url == repo
        elif kind == "bugtracker":
            good = url in (f"{repo}/issues", f"{repo}/-/issues")
        else:
            good = url == repo or url.startswith(repo + "/")
        if not good:
            problems.append(f'<url type="{kind}"> is {url}, not {repo} or under it')
    return "\n".join(problems) or None


def exec_forwards_uri(desktop_file, app_id):
    """A Flatpak's exported Exec= runs portal-sign-in in the sandbox and hands it the URI (%u)."""
    value = desktop_key(desktop_file, "Exec")
    if re.search(rf"flatpak run .* --command=portal-sign-in .* {re.escape(app_id)} @@u %u @@$", value):
        return None
    return f"Exec={value}"


def builder_tool():
    """GTK's own validator (Debian: libgtk-4-bin), or None where it is not installed."""
    return shutil.which("gtk4-builder-tool")


def ui_problems(path, domain, tool=None):
    """A GtkBuilder file the app can build (it aborts on one GTK cannot): well-formed XML whose root
    is <interface> in the app's gettext domain (else its words stay English), with text in every
    element marked translatable; and, with `tool` (gtk4-builder-tool), a file GTK itself builds
    without a message. The tool is a GTK program without libadwaita, so libadwaita is preloaded for
    it to find the Adw types the files use; it builds the widgets, so it needs a display."""
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as error:
        return f"not well-formed XML: {error}"
    if root.tag != "interface" or root.get("domain") != domain:
        return f'the root is <{root.tag} domain="{root.get("domain")}">, not <interface domain="{domain}">'
    empty = [element.get("name", element.tag) for element in root.iter()
             if element.get("translatable") in ("yes", "true", "1") and not (element.text or "").strip()]
    if empty:
        return f"translatable but empty: {', '.join(empty)}"
    if tool is None:
        return None
    status, output = run(tool, "validate", str(path), env=dict(os.environ, LD_PRELOAD="libadwaita-1.so.0"))
    return output if status != 0 or output.strip() else None
