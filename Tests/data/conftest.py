"""The data suite's fixtures: the installed layout, the source files it checks, and scratch folders."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import checks  # noqa: E402


@pytest.fixture(scope="session")
def layout():
    return checks.read_layout()


@pytest.fixture(scope="session")
def app_id(layout):
    return layout["PORTAL_APP_ID"]


@pytest.fixture(scope="session")
def desktop_src(app_id):
    return checks.REPO / "data" / f"{app_id}.desktop"


@pytest.fixture(scope="session")
def metainfo_src(app_id):
    return checks.REPO / "data" / f"{app_id}.metainfo.xml"


@pytest.fixture(scope="session")
def schema_src(app_id):
    return checks.REPO / "data" / f"{app_id}.gschema.xml"


@pytest.fixture(scope="session")
def version():
    return checks.version_in(checks.REPO)
