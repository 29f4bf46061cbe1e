"""Merges the JUnit results of the UI suite's parts (Tests/ui/run) into one file, so the suite's
floor counts every part's tests.

    merge_results.py OUT.xml PART.xml…

Fails (status 1) when a part wrote no readable results: its tests would be missing from the count.
"""
import sys
import xml.etree.ElementTree as ElementTree


def main(out, parts):
    merged = ElementTree.Element("testsuites")
    for part in parts:
        try:
            root = ElementTree.parse(part).getroot()
        except (OSError, ElementTree.ParseError) as error:
            print(f"no readable results from {part}: {error}")
            return 1
        merged.extend(root.iter("testsuite"))
    ElementTree.ElementTree(merged).write(out, encoding="utf-8", xml_declaration=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
