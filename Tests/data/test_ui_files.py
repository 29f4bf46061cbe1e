"""The windows' and pages' GtkBuilder files (data/ui/*.ui): each one compiled into the program's
GResource, its words extracted for translation, and one GTK builds (the app aborts on one it cannot).
The check that judges a file is also run on broken copies, each of which it must refuse."""
import xml.etree.ElementTree as ElementTree

import pytest

import checks
from checks import REPO

UI_FILES = sorted((REPO / "data" / "ui").glob("*.ui"))
GRESOURCE = REPO / "data" / "io.github.portalauth.SignIn.gresource.xml"


def test_every_ui_file_is_in_the_gresource_under_ui():
    """Resources.path("ui/NAME.ui") is where the app looks: each file's alias is its own name under ui/."""
    files = ElementTree.parse(GRESOURCE).getroot().iter("file")
    listed = {element.text: element.get("alias") for element in files if (element.text or "").startswith("ui/")}
    assert UI_FILES, "data/ui holds no .ui files"
    for path in UI_FILES:
        name = f"ui/{path.name}"
        assert listed.get(name) == name, f"{GRESOURCE.name} lacks <file alias=\"{name}\">{name}</file>"
    assert set(listed) == {f"ui/{path.name}" for path in UI_FILES}, "the gresource lists a .ui file data/ui lacks"


def test_every_ui_file_is_in_potfiles():
    listed = set((REPO / "po" / "POTFILES").read_text().splitlines())
    missing = [path.name for path in UI_FILES if str(path.relative_to(REPO)) not in listed]
    assert not missing, f"po/POTFILES lacks {missing}; run script/update-po"


@pytest.mark.parametrize("path", UI_FILES, ids=lambda path: path.name)
def test_the_ui_file_builds_in_the_apps_domain(path, layout):
    problems = checks.ui_problems(path, layout["PORTAL_DOMAIN"], checks.builder_tool())
    assert problems is None, problems


def refused(copy, layout):
    """The check refuses the copy with GTK's validator where it is installed, and without it."""
    domain = layout["PORTAL_DOMAIN"]
    return checks.ui_problems(copy, domain) is not None and checks.ui_problems(copy, domain, checks.builder_tool()) is not None


def test_a_translatable_property_without_text_fails_the_check(layout, tmp_path):
    copy = tmp_path / "empty-text.ui"
    source = (REPO / "data" / "ui" / "status-page.ui").read_text()
    copy.write_text(source.replace('translatable="yes">One moment…<', 'translatable="yes"><', 1))
    assert copy.read_text() != source
    assert refused(copy, layout)


def test_a_ui_file_outside_the_apps_gettext_domain_fails_the_check(layout, tmp_path):
    copy = tmp_path / "no-domain.ui"
    source = (REPO / "data" / "ui" / "status-page.ui").read_text()
    copy.write_text(source.replace(f'<interface domain="{layout["PORTAL_DOMAIN"]}">', "<interface>", 1))
    assert copy.read_text() != source
    assert refused(copy, layout)


def test_a_ui_file_cut_short_fails_the_check(layout, tmp_path):
    copy = tmp_path / "cut-short.ui"
    copy.write_text((REPO / "data" / "ui" / "status-page.ui").read_text().replace("</interface>", ""))
    assert refused(copy, layout)
