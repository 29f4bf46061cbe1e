"""An install into a throwaway prefix, as a user's ~/.local: the desktop must find the launcher, icon,
schema and scheme handler there; installing again with the prefix off PATH, a clean uninstall, a
user's own mimeapps.list kept, and a packager's DESTDIR install. The tests run in this file's order,
each stage's fixture after the tests of the one before."""
import os

import pytest

import checks
from checks import run


def install(prefix, config, *, path=None, **env):
    return run("script/install", "--prefix", str(prefix),
               env=dict(os.environ, XDG_CONFIG_HOME=str(config), PORTAL_BUILD_CONFIG="debug",
                        PATH=path or os.environ["PATH"], **env))


def uninstall(prefix, config, **env):
    return run("script/uninstall", "--prefix", str(prefix), env=dict(os.environ, XDG_CONFIG_HOME=str(config), **env))


class Installed:
    def __init__(self, root):
        self.prefix, self.config = root / "prefix", root / "config"
        self.prefix.mkdir()
        self.config.mkdir()
        # As a user's ~/.local: <prefix>/bin is on PATH, so the desktop file is installed as shipped.
        self.status, self.output = install(self.prefix, self.config, path=f"{self.prefix / 'bin'}:{os.environ['PATH']}")

    def default_handler(self, path, layout):
        """What `gio mime` reports for the scheme, looking only at this prefix (GIO skips desktop files
        whose Exec program it cannot find, so PATH matters)."""
        return run("gio", "mime", layout["PORTAL_SCHEME_MIME"],
                   env=dict(os.environ, PATH=path, XDG_DATA_HOME=str(self.prefix / "share"), XDG_CONFIG_HOME=str(self.config),
                            XDG_DATA_DIRS=str(self.prefix / "share"), LC_ALL="C.UTF-8"))[1]


def handler_line(layout):
    return f"Default application for “{layout['PORTAL_SCHEME_MIME']}”: {layout['PORTAL_DESKTOP_NAME']}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    return Installed(tmp_path_factory.mktemp("install"))


def test_script_install_into_a_prefix(installed):
    assert installed.status == 0, installed.output[-3000:]


def test_the_install_puts_every_file_where_the_desktop_expects_it(installed, layout):
    expected = [f"bin/{name}" for name in layout["executables"]] + [
        layout[name] for name in ("PORTAL_DESKTOP_FILE", "PORTAL_METAINFO_FILE", "PORTAL_ICON_FILE", "PORTAL_SYMBOLIC_ICON_FILE",
                                  "PORTAL_SCHEMA_FILE")] + [
        "share/glib-2.0/schemas/gschemas.compiled", "share/applications/mimeinfo.cache", layout["PORTAL_DBUS_SERVICE_FILE"],
        layout["PORTAL_MANIFEST"]] + [
        f"share/locale/{language}/LC_MESSAGES/{layout['PORTAL_DOMAIN']}.mo" for language in layout["languages"]]
    missing = [name for name in expected if not (installed.prefix / name).is_file() or (installed.prefix / name).stat().st_size == 0]
    assert not missing, f"missing: {missing}"


@pytest.mark.parametrize("program", checks.read_layout()["executables"])
def test_the_program_is_installed_executable(installed, program):
    assert os.access(installed.prefix / "bin" / program, os.X_OK)


def test_the_installed_desktop_file_validates(installed, layout):
    problems = checks.desktop_problems(installed.prefix / layout["PORTAL_DESKTOP_FILE"])
    assert problems is None, problems


def test_the_installed_metainfo_validates(installed, layout, app_id):
    problems = checks.appstream_problems(installed.prefix / layout["PORTAL_METAINFO_FILE"], app_id)
    assert problems is None, problems


def test_exec_names_an_installed_program(installed, layout):
    program = checks.desktop_key(installed.prefix / layout["PORTAL_DESKTOP_FILE"], "Exec").split(" ")[0]
    assert program and os.access(installed.prefix / "bin" / program, os.X_OK)


def test_the_installed_desktop_file_says_the_app_sends_notifications(installed, layout):
    assert checks.desktop_key(installed.prefix / layout["PORTAL_DESKTOP_FILE"], "X-GNOME-UsesNotifications") == "true"


def test_the_desktop_file_asks_for_dbus_activation(installed, layout):
    assert checks.desktop_key(installed.prefix / layout["PORTAL_DESKTOP_FILE"], "DBusActivatable") == "true"


def test_the_dbus_service_is_named_after_the_app_id(installed, layout, app_id):
    assert f"Name={app_id}" in (installed.prefix / layout["PORTAL_DBUS_SERVICE_FILE"]).read_text().splitlines()


def test_the_dbus_service_starts_the_installed_app_as_a_gapplication_service(installed, layout):
    service = (installed.prefix / layout["PORTAL_DBUS_SERVICE_FILE"]).read_text().splitlines()
    assert f"Exec={installed.prefix}/bin/portal-sign-in --gapplication-service" in service


def test_the_icon_resolves_to_the_installed_hicolor_icon(installed, layout):
    icon = checks.desktop_key(installed.prefix / layout["PORTAL_DESKTOP_FILE"], "Icon")
    assert (installed.prefix / "share" / "icons" / "hicolor" / "scalable" / "apps" / f"{icon}.svg").is_file()


LANGUAGE_KEYS = [(language, key) for language in checks.read_layout()["languages"] for key in ("Name", "Comment", "Keywords")]


@pytest.mark.parametrize("language,key", LANGUAGE_KEYS)
def test_the_installed_desktop_file_is_translated(installed, layout, language, key):
    desktop = installed.prefix / layout["PORTAL_DESKTOP_FILE"]
    value = checks.desktop_key(desktop, f"{key}[{language}]")
    assert value and value != checks.desktop_key(desktop, key)


@pytest.mark.parametrize("language", checks.read_layout()["languages"])
def test_the_installed_metainfo_has_a_translated_summary(installed, layout, language):
    assert f'<summary xml:lang="{language}">' in (installed.prefix / layout["PORTAL_METAINFO_FILE"]).read_text()


def _translation_of_the_name(catalog_text):
    lines = catalog_text.splitlines()
    for index, line in enumerate(lines[:-1]):
        if line == 'msgid "Portal Sign-In"' and lines[index + 1].startswith('msgstr "'):
            return lines[index + 1][len('msgstr "'):-1]
    return ""


@pytest.mark.parametrize("language", checks.read_layout()["languages"])
def test_the_compiled_catalog_translates_the_app_name(installed, layout, language):
    """Read back from the binary .mo file, as the app's gettext reads it."""
    compiled = run("msgunfmt", str(installed.prefix / "share" / "locale" / language / "LC_MESSAGES" / f"{layout['PORTAL_DOMAIN']}.mo"))[1]
    source = run("msgattrib", "--no-obsolete", f"po/{language}.po")[1]
    assert _translation_of_the_name(compiled) and _translation_of_the_name(compiled) == _translation_of_the_name(source)


@pytest.mark.parametrize("key,kind", [("api-host", "s"), ("auth-environment-id", "s"), ("redirect-url", "s"),
                                      ("account-abstracted", "b")])
def test_gsettings_finds_the_key_with_the_type_the_app_reads(installed, app_id, key, kind):
    status, output = run("gsettings", "--schemadir", str(installed.prefix / "share" / "glib-2.0" / "schemas"), "range", app_id, key)
    assert output.strip() == f"type {kind}"


def test_the_gsettings_schema_names_the_gettext_domain(installed, layout):
    assert f'gettext-domain="{layout["PORTAL_DOMAIN"]}"' in (installed.prefix / layout["PORTAL_SCHEMA_FILE"]).read_text()


def test_gio_names_the_app_as_the_schemes_default_handler(installed, layout):
    assert handler_line(layout) in installed.default_handler(f"{installed.prefix / 'bin'}:{os.environ['PATH']}", layout)


def test_mimeinfo_cache_lists_the_scheme(installed, layout):
    cache = (installed.prefix / "share" / "applications" / "mimeinfo.cache").read_text().splitlines()
    assert f"{layout['PORTAL_SCHEME_MIME']}={layout['PORTAL_DESKTOP_NAME']};" in cache


# --- installing again with <prefix>/bin off PATH: Exec= then names the program by full path -----

@pytest.fixture(scope="module")
def reinstalled(installed):
    installed.status, installed.output = install(installed.prefix, installed.config)
    return installed


def test_script_install_again_over_the_same_prefix(reinstalled):
    assert reinstalled.status == 0, reinstalled.output[-3000:]


def test_off_path_exec_names_the_program_by_full_path(reinstalled, layout):
    exec_line = checks.desktop_key(reinstalled.prefix / layout["PORTAL_DESKTOP_FILE"], "Exec")
    assert exec_line == f"{reinstalled.prefix}/bin/portal-sign-in %u"


def test_off_path_gio_still_names_the_app(reinstalled, layout):
    assert handler_line(layout) in reinstalled.default_handler(os.environ["PATH"], layout)


# --- uninstall --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def uninstalled(reinstalled):
    reinstalled.status, reinstalled.output = uninstall(reinstalled.prefix, reinstalled.config)
    return reinstalled


def test_script_uninstall(uninstalled):
    assert uninstalled.status == 0, uninstalled.output[-3000:]


def test_uninstall_leaves_nothing_behind_in_the_prefix(uninstalled):
    assert list(uninstalled.prefix.rglob("*")) == []


def test_uninstall_removes_the_mimeapps_list_it_created(uninstalled):
    assert not (uninstalled.config / "mimeapps.list").exists()


def test_after_uninstall_no_application_handles_the_scheme(uninstalled, layout):
    assert layout["PORTAL_DESKTOP_NAME"] not in uninstalled.default_handler(f"{uninstalled.prefix / 'bin'}:{os.environ['PATH']}", layout)


def test_uninstall_keeps_the_users_other_mimeapps_list_entries(uninstalled, layout, tmp_path):
    own_config = tmp_path / "own-config"
    own_config.mkdir()
    mimeapps = own_config / "mimeapps.list"
    before = ("[Default Applications]\ntext/html=firefox-esr.desktop\n\n"
              "[Added Associations]\nimage/png=org.gnome.Loupe.desktop;\n")
    mimeapps.write_text(before)
    status, output = install(uninstalled.prefix, own_config)
    assert status == 0, output[-3000:]
    assert f"{layout['PORTAL_SCHEME_MIME']}={layout['PORTAL_DESKTOP_NAME']}" in mimeapps.read_text().splitlines()
    status, output = uninstall(uninstalled.prefix, own_config)
    assert status == 0, output[-3000:]
    assert mimeapps.read_text() == before


# --- a packager's staged install: files under DESTDIR, no handler registered, a clean uninstall ---

@pytest.fixture(scope="module")
def staged(uninstalled, tmp_path_factory):
    stage = tmp_path_factory.mktemp("stage")
    status, output = install("/usr", uninstalled.config, DESTDIR=str(stage))
    return stage, status, output


def test_a_destdir_install(staged):
    _, status, output = staged
    assert status == 0, output[-3000:]


def test_a_destdir_install_stages_the_desktop_file_under_the_prefix(staged, layout):
    stage, _, _ = staged
    assert (stage / "usr" / layout["PORTAL_DESKTOP_FILE"]).is_file()


def test_a_destdir_install_registers_no_handler(staged, uninstalled):
    assert not (uninstalled.config / "mimeapps.list").exists()


def test_a_destdir_uninstall_leaves_nothing_behind(staged, uninstalled):
    stage, _, _ = staged
    uninstall("/usr", uninstalled.config, DESTDIR=str(stage))
    assert [path for path in stage.rglob("*") if path != stage / "usr"] == []
