"""The translations: each catalog compiles cleanly and covers nearly every string, and the template
holds exactly the strings the sources mark (script/update-po refreshes it)."""
import re

import pytest

import checks
from checks import REPO, run

LANGUAGES = checks.read_layout()["languages"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_compiles_with_format_checks(language):
    status, output = run("msgfmt", "--check", "--check-format", "-o", "/dev/null", f"po/{language}.po")
    assert status == 0, output


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalog_covers_at_least_95_percent_of_the_strings(language):
    status, stats = run("msgfmt", "--statistics", "-o", "/dev/null", f"po/{language}.po", env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})

    def count(kind):
        found = re.search(rf"(\d+) {kind}", stats)
        return int(found.group(1)) if found else 0

    translated, total = count("translated"), count("translated") + count("fuzzy") + count("untranslated")
    assert total > 0 and translated * 100 >= total * 95, f"po/{language}.po covers {translated} of {total}: {stats}"


def test_the_template_and_potfiles_match_the_marked_strings(layout, desktop_src, metainfo_src, schema_src, tmp_path):
    sources = sorted(str(path.relative_to(REPO)) for folder in ("Sources/SignInApp", "Sources/PortalAuthGNOME")
                     for path in (REPO / folder).rglob("*.swift") if re.search(r"\btrn?\(", path.read_text()))
    layouts = sorted((REPO / "data" / "ui").glob("*.ui"))
    data = [str(path.relative_to(REPO)) for path in (desktop_src, metainfo_src, schema_src, *layouts)]
    listed = sorted(line for line in (REPO / "po" / "POTFILES").read_text().splitlines() if line and not line.startswith("#"))
    assert listed == sorted(sources + data), "po/POTFILES is stale; run script/update-po"
    fresh = tmp_path / "fresh.pot"
    # Any tool failing fails the check: a template that could not be made is not a matching one.
    if sources:
        status, output = run("xgettext", "--from-code=UTF-8", "--language=C", "--keyword=", "--keyword=tr",
                             "--keyword=trn:1,2", "-o", str(fresh), *sources)
        assert status == 0, f"xgettext failed, so the sources' strings are unknown: {output}"
        status, output = run("xgettext", "--from-code=UTF-8", "--join-existing", "-o", str(fresh), *data)
    else:
        status, output = run("xgettext", "--from-code=UTF-8", "-o", str(fresh), *data)
    assert status == 0, f"xgettext failed, so the sources' strings are unknown: {output}"
    assert fresh.stat().st_size > 0, "xgettext wrote no template"
    template = f"po/{layout['PORTAL_DOMAIN']}.pot"
    status, unique = run("msgcomm", "--unique", str(fresh), template)
    assert status == 0, f"msgcomm failed: {unique}"
    differing = [line for line in unique.splitlines() if line.startswith("#: ")]
    assert not differing, f"{template} and the sources differ in {len(differing)} strings; run script/update-po"
