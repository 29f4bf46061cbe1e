"""For the suites beside Tests/ui (keepassxc, kwallet, sandbox) that run the app as the UI suite does:
its conftest's fixtures (the installed app, the emulator, a session with its scripted browser) put
into the calling conftest's namespace, and Tests/secret_service on the import path."""
import importlib.util
import sys
from pathlib import Path

UI = Path(__file__).resolve().parent


def use_ui_fixtures(namespace):
    sys.path.insert(0, str(UI.parent / "secret_service"))
    spec = importlib.util.spec_from_file_location("ui_conftest", UI / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    namespace.update({name: value for name, value in vars(module).items() if not name.startswith("_")})
