#!/usr/bin/env python3
"""Keeps only the public API in a swift-api-digester dump, rewriting it in place.

The digester also dumps `package` declarations (marked "isInternal"), which this package's modules
share and an app cannot see: changing them is no API change, so they are dropped, and so is an
extension of another module's type that is left without a declaration.

    api-public.py DUMP.json
"""
import json
import sys

DECLARATIONS = {"TypeDecl", "Var", "Func", "Constructor", "TypeAlias", "Subscript", "AssociatedType"}


def keep(node):
    """The node without its package declarations; None when nothing public is left of it."""
    if node.get("isInternal"):
        return None
    children = node.get("children")
    if children is not None:
        kept = [child for child in map(keep, children) if child is not None]
        had_declarations = any(child.get("kind") in DECLARATIONS for child in children)
        has_declarations = any(child.get("kind") in DECLARATIONS for child in kept)
        # An extension (of another module's type) that only held package members is gone with them.
        if node.get("isExternal") and had_declarations and not has_declarations:
            return None
        node["children"] = kept
    return node


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = sys.argv[1]
    with open(path, encoding="utf-8") as file:
        dump = json.load(file)
    dump["ABIRoot"] = keep(dump["ABIRoot"])
    with open(path, "w", encoding="utf-8") as file:
        json.dump(dump, file, indent=2, ensure_ascii=False)
        file.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
