"""Validates dunlua JSON exports against docs/map.schema.json with the
jsonschema package (Draft 2020-12). Prints "ok N" or the first error.

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
        print(f"{path}: {'/'.join(map(str, e.path))}: {e.message}")
        sys.exit(1)
    if len(doc["cells"]) != doc["width"] * doc["height"]:
        print(f"{path}: cells holds {len(doc['cells'])} ids for a {doc['width']}x{doc['height']} map")
        sys.exit(1)
print("ok", len(sys.argv) - 2)
