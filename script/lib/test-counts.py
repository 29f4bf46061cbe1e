"""Checks one suite's test results (a JUnit/xUnit XML file) against the floors in
Tests/expected-counts and the skips Tests/allowed-skips permits.

    test-counts.py SUITE RESULTS.xml EXPECTED-COUNTS ALLOWED-SKIPS

SUITE is "swift" (then each test target, the classname's first part, has its own floor as
"swift/<Target>"), or the name of another suite ("ui", "data", "scripts"). Prints what ran and
exits 1 when the file is missing or unreadable, a floor is not met, a floor is missing for a
target that ran, or a test was skipped without being listed with a reason.
"""
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter


def read_floors(path):
    floors = {}
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, value = line.rpartition(" ")
        floors[name.strip()] = int(value)
    return floors


def read_allowed_skips(path):
    allowed = {}
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, _, reason = line.strip().partition(" ")
        allowed[key] = reason.strip()
    return allowed


def main(suite, results, floors_path, skips_path):
    problems = []
    try:
        root = ElementTree.parse(results).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"{suite}: no readable test results ({results}: {error}); the suite did not report its tests")
        return 1
    floors = read_floors(floors_path)
    allowed = read_allowed_skips(skips_path)
    ran = Counter()
    for case in root.iter("testcase"):
        classname = case.get("classname", "")
        group = f"swift/{classname.split('.')[0]}" if suite == "swift" else suite
        ran[group] += 1
        if case.find("skipped") is not None:
            key = f"{suite}/{classname}/{case.get('name', '')}"
            if not allowed.get(key):
                problems.append(f"skipped without a reason in Tests/allowed-skips: {key}")
    expected = {name: floor for name, floor in floors.items() if name == suite or name.startswith(suite + "/")}
    if not expected:
        problems.append(f"Tests/expected-counts has no floor for {suite}")
    for name in sorted(set(expected) | set(ran)):
        count, floor = ran.get(name, 0), expected.get(name)
        if floor is None:
            problems.append(f"{name} ran {count} tests but Tests/expected-counts has no floor for it")
        elif count < floor:
            problems.append(f"{name} ran {count} tests, fewer than the {floor} Tests/expected-counts expects")
        else:
            print(f"{name}: {count} tests (floor {floor})")
    for problem in problems:
        print(f"FAIL {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
