"""The declarations added to or removed from a swift-api-digester dump, by their full printed name
(the digester's own diagnosis lists only what breaks compatibility)."""
import json
import sys


# Nodes that spell a declaration's types, not declarations.
TYPE_REFERENCES = ("TypeNominal", "TypeFunc", "TypeNameAlias")


def names(path):
    def walk(node, parents):
        name = node.get("printedName", "")
        kind = node.get("kind", "")
        here = parents
        if kind not in ("Root", "Import") + TYPE_REFERENCES and name:
            here = parents + [name]
            yield f"{node.get('declKind', kind)} {'.'.join(here)}"
        for child in node.get("children", []):
            if child.get("kind") in TYPE_REFERENCES:
                continue
            yield from walk(child, here)
    with open(path) as file:
        return set(walk(json.load(file)["ABIRoot"], []))


before, after = names(sys.argv[1]), names(sys.argv[2])
for name in sorted(after - before):
    print(f"added:   {name}")
for name in sorted(before - after):
    print(f"removed: {name}")
