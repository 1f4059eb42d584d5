"""Validates dunlua JSON exports (maps and multi-level dungeons) against
docs/map.schema.json with the jsonschema package (Draft 2020-12), and that
every map's cells fill its size. Prints "ok N" or the first error.

    python3 validate_json.py SCHEMA FILE...
"""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
for path in sys.argv[2:]:
    doc = json.load(open(path))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        # A oneOf failure quotes the whole document: the best match's
        # own error says more, and briefly.
        best = jsonschema.exceptions.best_match(errors)
        print(f"{path}: {'/'.join(map(str, best.path))}: {best.message[:300]}")
        sys.exit(1)
    for level in doc.get("levels", [doc]):
        if len(level["cells"]) != level["width"] * level["height"]:
            print(f"{path}: cells holds {len(level['cells'])} ids for a {level['width']}x{level['height']} map")
            sys.exit(1)
print("ok", len(sys.argv) - 2)
