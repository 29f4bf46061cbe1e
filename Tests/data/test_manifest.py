"""The Flatpak manifest, read as Flathub builds it, and the Flatpak as flatpak deploys it: the
manifest's own install command (as flatpak-builder runs it: /app/bin first on PATH, FLATPAK_ID set;
DESTDIR stands in for the sandbox's /app, and the debug build for the release one), then flatpak's
build-finish with the manifest's command and finish-args, build-export into a scratch repository
and install into a scratch installation. flatpak rewrites Exec= of the desktop file and the D-Bus
service when it deploys them to exports/, which is what the host desktop reads."""
import json
import os
import re
import shutil

import pytest

import checks
from checks import REPO, run


@pytest.fixture(scope="module")
def manifest(app_id):
    return json.loads((REPO / f"{app_id}.json").read_text())


def app_module(manifest):
    return next(module for module in manifest["modules"] if isinstance(module, dict) and module.get("name") == "portal-sign-in")


def objects(value):
    """Every JSON object in `value`, at any depth (jq's `.. | objects`)."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from objects(item)


def test_the_manifest_parses_as_json(app_id):
    status, output = run("jq", "-e", ".", f"{app_id}.json")
    assert status == 0, output


def test_the_manifest_id_is_the_app_id(manifest, app_id):
    assert (manifest.get("id") or manifest.get("app-id")) == app_id


def test_the_manifest_command_is_portal_sign_in(manifest):
    assert manifest.get("command") == "portal-sign-in"


def test_the_manifest_runs_on_gnome_49_with_its_sdk(manifest):
    assert (manifest.get("runtime"), manifest.get("runtime-version"), manifest.get("sdk")) == ("org.gnome.Platform", "49", "org.gnome.Sdk")


def test_the_manifest_uses_the_swift6_sdk_extension(manifest):
    """Branch 25.08 of the extension matches GNOME 49."""
    assert manifest.get("sdk-extensions") == ["org.freedesktop.Sdk.Extension.swift6"]


def test_the_manifests_finish_args_are_exactly_network_ipc_wayland_fallback_x11_dri(manifest):
    assert sorted(manifest.get("finish-args", [])) == sorted(
        ["--share=network", "--share=ipc", "--socket=wayland", "--socket=fallback-x11", "--device=dri"])


def test_the_manifest_builds_libqrencode_from_a_pinned_tarball(manifest):
    archives = [source for module in manifest["modules"] if isinstance(module, dict) and module.get("name") == "libqrencode"
                for source in module.get("sources", []) if source.get("type") == "archive"]
    assert len(archives) == 1 and re.fullmatch(r"[0-9a-f]{64}", archives[0].get("sha256", ""))


def install_command(manifest):
    lines = [line for line in app_module(manifest).get("build-commands", []) if re.search(r"(^|[ ;&])script/install( |$)", line)]
    assert len(lines) == 1, f"want one script/install command, found: {lines or 'none'}"
    return lines[0]


def test_the_manifest_installs_with_the_projects_own_script_into_app(manifest):
    """The prefix script/install would really use: PREFIX= before the command, then --prefix options
    (the last one wins, as script/install reads them); without either it is ~/.local."""
    prefix = app_module(manifest).get("build-options", {}).get("env", {}).get("PREFIX")
    words, seen_install, index = install_command(manifest).split(), False, 0
    while index < len(words):
        word = words[index]
        if word == "script/install":
            seen_install = True
        elif word.startswith("PREFIX=") and not seen_install:
            prefix = word[len("PREFIX="):]
        elif word.startswith("--prefix=") and seen_install:
            prefix = word[len("--prefix="):]
        elif word == "--prefix" and seen_install:
            index += 1
            prefix = words[index] if index < len(words) else ""
        index += 1
    assert prefix == "/app", f"script/install would install into {prefix or '~/.local, its default'}, not /app"


def test_the_manifest_links_the_swift_runtime_statically(manifest):
    """A release's own flags link the runtime in (and lay out start-up code): the manifest asks for a
    release and does not replace them."""
    module = app_module(manifest)
    environment = module.get("build-options", {}).get("env") or {}
    assert environment.get("PORTAL_BUILD_CONFIG") == "release"
    assert "PORTAL_SWIFT_BUILD_FLAGS" not in environment, "it would replace the release's flags"
    install = (REPO / "script" / "install").read_text()
    release_flags = install[install.index('elif [ "$config" = release ]'):install.index("else\n    extra_flags=()")]
    assert "--static-swift-stdlib" in release_flags


def test_the_manifest_puts_the_swift_toolchain_on_path(manifest):
    assert manifest.get("build-options", {}).get("append-path") == "/usr/lib/sdk/swift6/bin"


def test_package_swift_has_no_package_dependencies_to_fetch_at_build_time():
    """Flathub builds without network: every source is fetched before the build, so SwiftPM must
    have nothing to resolve."""
    assert not re.search(r"\.package\(", (REPO / "Package.swift").read_text())


def test_no_manifest_module_builds_with_network_access(manifest):
    assert [argument for value in objects(manifest) for argument in value.get("build-args", []) if "share=network" in argument] == []


def test_the_manifest_renames_and_rewrites_none_of_the_exported_files(manifest):
    pattern = r"rename-(desktop-file|icon|appdata-file|mime-file)|desktop-file-name-(prefix|suffix)"
    assert [key for value in objects(manifest) for key in value if re.fullmatch(pattern, key)] == []


# --- the Flatpak as flatpak deploys it -----------------------------------------------------------

class Flatpak:
    def __init__(self, folder, manifest, app_id):
        self.folder, self.manifest, self.app_id = folder, manifest, app_id

    def deploy(self, name):
        """build-finish, build-export and install `folder/name` into its own scratch installation,
        whose exports/share the host would read."""
        build, user = self.folder / name, self.folder / f"{name}-user"
        finish = [f"--command={self.manifest['command']}", *self.manifest.get("finish-args", [])]
        env = dict(os.environ, FLATPAK_USER_DIR=str(user), FLATPAK_SYSTEM_DIR=str(self.folder / "system"))
        for command in (["flatpak", "build-finish", *finish, str(build)],
                        ["flatpak", "build-export", str(self.folder / f"{name}-repo"), str(build), "master"],
                        ["flatpak", "--user", "remote-add", "--no-gpg-verify", "project", str(self.folder / f"{name}-repo")],
                        ["flatpak", "--user", "install", "-y", "--noninteractive", "--no-deps", "project", self.app_id]):
            status, output = run(*command, env=env)
            if status != 0:
                return output
        return None

    def exports(self, name="build"):
        return self.folder / f"{name}-user" / "exports" / "share"


@pytest.fixture(scope="module")
def flatpak(manifest, app_id, layout, tmp_path_factory):
    folder = tmp_path_factory.mktemp("flatpak")
    build = folder / "build"
    build.mkdir()
    env = dict(os.environ, DESTDIR=str(folder / "root"), FLATPAK_ID=app_id, PATH=f"/app/bin:{os.environ['PATH']}",
               XDG_CONFIG_HOME=str(folder / "config"), PORTAL_BUILD_CONFIG="debug", PORTAL_SWIFT_BUILD_FLAGS="")
    status, output = run("bash", "-c", install_command(manifest), env=env)
    if status != 0:
        return None, output
    shutil.move(str(folder / "root" / "app"), str(build / "files"))
    arch = run("flatpak", "--default-arch")[1].strip()
    version = manifest["runtime-version"]
    (build / "metadata").write_text(f"[Application]\nname={app_id}\nruntime={manifest['runtime']}/{arch}/{version}\n"
                                    f"sdk={manifest['sdk']}/{arch}/{version}\n")
    shutil.copytree(build, folder / "no-uri", symlinks=True)
    deployed = Flatpak(folder, manifest, app_id)
    problems = deployed.deploy("build")
    return (None, problems) if problems else (deployed, None)


def exported(flatpak):
    deployed, problems = flatpak
    assert deployed is not None, problems
    return deployed


def test_the_manifests_install_then_flatpak_build_finish_build_export_and_install(flatpak):
    exported(flatpak)


def test_the_flatpak_exports_the_desktop_file(flatpak, layout):
    assert (exported(flatpak).exports() / "applications" / layout["PORTAL_DESKTOP_NAME"]).is_file()


def test_the_flatpaks_exported_desktop_file_validates(flatpak, layout):
    problems = checks.desktop_problems(exported(flatpak).exports() / "applications" / layout["PORTAL_DESKTOP_NAME"])
    assert problems is None, problems


def test_the_flatpaks_exported_desktop_file_claims_the_redirect_scheme(flatpak, layout):
    desktop = exported(flatpak).exports() / "applications" / layout["PORTAL_DESKTOP_NAME"]
    assert checks.desktop_key(desktop, "MimeType") == layout["PORTAL_SCHEME_MIME"] + ";"


def test_the_flatpaks_exported_exec_runs_the_app_in_the_sandbox_and_forwards_the_uri(flatpak, layout, app_id):
    problems = checks.exec_forwards_uri(exported(flatpak).exports() / "applications" / layout["PORTAL_DESKTOP_NAME"], app_id)
    assert problems is None, problems


def test_the_flatpaks_exported_desktop_file_says_the_app_sends_notifications(flatpak, layout):
    desktop = exported(flatpak).exports() / "applications" / layout["PORTAL_DESKTOP_NAME"]
    assert checks.desktop_key(desktop, "X-GNOME-UsesNotifications") == "true"


def test_the_flatpaks_exported_desktop_file_asks_for_dbus_activation(flatpak, layout):
    desktop = exported(flatpak).exports() / "applications" / layout["PORTAL_DESKTOP_NAME"]
    assert checks.desktop_key(desktop, "DBusActivatable") == "true"


def test_the_flatpak_exports_the_dbus_service_named_after_the_app_id(flatpak, app_id):
    service = exported(flatpak).exports() / "dbus-1" / "services" / f"{app_id}.service"
    assert f"Name={app_id}" in service.read_text().splitlines()


def test_the_flatpaks_dbus_service_starts_the_sandboxed_app_as_a_gapplication_service(flatpak, app_id):
    service = exported(flatpak).exports() / "dbus-1" / "services" / f"{app_id}.service"
    pattern = rf"Exec=[^ ]*flatpak run .*--command=/app/bin/portal-sign-in {re.escape(app_id)} --gapplication-service"
    assert any(re.fullmatch(pattern, line) for line in service.read_text().splitlines())


def test_on_the_host_gio_names_the_flatpaks_desktop_file_for_the_scheme(flatpak, layout, tmp_path):
    exports = exported(flatpak).exports()
    _, answer = run("gio", "mime", layout["PORTAL_SCHEME_MIME"],
                    env=dict(os.environ, XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_DIRS=str(exports),
                             LC_ALL="C.UTF-8"))
    assert f"Default application for “{layout['PORTAL_SCHEME_MIME']}”: {layout['PORTAL_DESKTOP_NAME']}" in answer


def test_a_desktop_file_without_the_uri_fails_the_flatpak_exec_check(flatpak, layout, app_id):
    """The same tree with %u dropped from Exec=: flatpak then forwards no URI, and the check must say so."""
    deployed = exported(flatpak)
    desktop = deployed.folder / "no-uri" / "files" / layout["PORTAL_DESKTOP_FILE"]
    desktop.write_text(re.sub(r"^(Exec=.*) %u$", r"\1", desktop.read_text(), flags=re.MULTILINE))
    problems = deployed.deploy("no-uri")
    assert problems is None, f"flatpak did not deploy the tree without %u: {problems}"
    assert checks.exec_forwards_uri(deployed.exports("no-uri") / "applications" / layout["PORTAL_DESKTOP_NAME"], app_id) is not None
