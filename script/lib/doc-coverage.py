#!/usr/bin/env python3
"""Fails when a public symbol of a module has no abstract (no `///` summary), reading DocC's
documentation-coverage.json (`docc convert --experimental-documentation-coverage`). script/docs runs it
for the modules whose every public symbol is documented (sdk_documented_modules).

    doc-coverage.py MODULE COVERAGE_JSON

Prints each undocumented symbol's path and kind, then a count; exit 1 when there is any, 2 when the
file cannot be read or holds no symbol of MODULE (a check that saw nothing must not pass).
"""
import json
import sys

# DocC's own groupings ("Equatable Implementations"), not symbols anyone writes a comment for.
NOT_DOCUMENTABLE = {"CollectionGroup"}


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    module, path = sys.argv[1], sys.argv[2]
    try:
        with open(path, encoding="utf-8") as file:
            entries = json.load(file)
    except (OSError, ValueError) as error:
        print(f"{path}: cannot be read as DocC coverage ({error})", file=sys.stderr)
        return 2
    prefix = f"/documentation/{module}"
    symbols = [
        entry for entry in entries
        if isinstance(entry, dict) and entry.get("kind", {}).get("isSymbol")
        and entry.get("kind", {}).get("name") not in NOT_DOCUMENTABLE
        and prefix in entry.get("referencePath", "")
    ]
    if not symbols:
        print(f"{path}: no symbol of {module}; is this its coverage?", file=sys.stderr)
        return 2
    missing = sorted(
        (entry["referencePath"].split(prefix, 1)[1].lstrip("/") or module, entry["kind"]["name"])
        for entry in symbols if not entry.get("hasAbstract")
    )
    for name, kind in missing:
        print(f"{module}: no abstract: {name} ({kind})")
    if missing:
        print(f"{module}: {len(missing)} of {len(symbols)} public symbols have no abstract; "
              "give each a /// summary line")
        return 1
    print(f"{module}: all {len(symbols)} public symbols have an abstract")
    return 0


if __name__ == "__main__":
    sys.exit(main())
