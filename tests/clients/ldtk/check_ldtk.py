"""Checks dunlua's LDtk exports: each validates against LDtk's own JSON
schema (jsonschema, draft-07), and LDtk's quicktype parser (LdtkJson.py)
reads it back with the same tiles, start, markers (names, cells, props) and
rooms as dunlua's JSON export of the same run. Prints "ok N" or the first
difference.

    python3 check_ldtk.py PROJECT.ldtk DUNLUA.json [PROJECT.ldtk DUNLUA.json ...]
"""
import json
import os
import re
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import LdtkJson  # noqa: E402

schema = json.load(open(os.path.join(HERE, "JSON_SCHEMA.json")))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)


def fail(msg):
    print(msg)
    sys.exit(1)


def identifier(name):
    ident = re.sub(r"[^A-Za-z0-9]", "_", name)
    return ident if re.match(r"[A-Za-z_]", ident) else "_" + ident


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return a == b


def check(ldtk_path, json_path):
    raw = json.load(open(ldtk_path))
    errors = list(validator.iter_errors(raw))
    if errors:
        e = jsonschema.exceptions.best_match(errors)
        fail(f"{ldtk_path}: {'/'.join(map(str, e.path))}: {e.message[:300]}")
    project = LdtkJson.ldtk_json_from_dict(raw)
    ours = json.load(open(json_path))
    maps = ours.get("levels", [ours])
    if len(project.levels) != len(maps):
        fail(f"{ldtk_path}: {len(project.levels)} levels, dunlua made {len(maps)}")
    layers = {l.identifier: l for l in project.defs.layers}
    tiles_def = layers["Tiles"]
    kind_of_value = {v.value: v.identifier for v in tiles_def.int_grid_values}
    tileset = project.defs.tilesets[0]
    kind_of_tile = {d.tile_id: d.data for d in tileset.custom_data}
    if tileset.rel_path != os.path.basename(ldtk_path)[: -len(".ldtk")] + ".tiles.png":
        fail(f"{ldtk_path}: tileset image {tileset.rel_path}")
    if not os.path.isfile(os.path.join(os.path.dirname(ldtk_path), tileset.rel_path)):
        fail(f"{ldtk_path}: no tileset image {tileset.rel_path} beside it")
    for level, m in zip(project.levels, maps):
        where = f"{ldtk_path} {level.identifier}"
        by_name = {l.identifier: l for l in level.layer_instances}
        grid = by_name["Tiles"]
        if (grid.c_wid, grid.c_hei) != (m["width"], m["height"]):
            fail(f"{where}: {grid.c_wid}x{grid.c_hei}, dunlua {m['width']}x{m['height']}")
        names = {t["id"]: t["name"] for t in m["tiles"]}
        theirs = [kind_of_value[v] for v in grid.int_grid_csv]
        mine = [names[c] for c in m["cells"]]
        # IntGrid values are named as LDtk spells identifiers (1x is _1x).
        spelled = [identifier(n) for n in mine]
        if theirs != spelled:
            i = next(i for i, (a, b) in enumerate(zip(theirs, spelled)) if a != b)
            fail(f"{where}: cell {i % m['width']},{i // m['width']} is {theirs[i]}, dunlua {mine[i]}")
        # The auto-layer draws every cell with its kind's glyph.
        if len(grid.auto_layer_tiles) != len(mine):
            fail(f"{where}: {len(grid.auto_layer_tiles)} auto tiles for {len(mine)} cells")
        g = grid.grid_size
        for t in grid.auto_layer_tiles:
            x, y = t.px[0] // g, t.px[1] // g
            if kind_of_tile[t.t] != mine[y * m["width"] + x] or t.src != [t.t * g, 0]:
                fail(f"{where}: auto tile at {x},{y} is {kind_of_tile[t.t]}")
        entities = by_name["Markers"].entity_instances
        starts = [e for e in entities if e.identifier == "Start"]
        if [(s.grid[0], s.grid[1]) for s in starts] != [(m["start"]["x"], m["start"]["y"])]:
            fail(f"{where}: start {[s.grid for s in starts]}, dunlua {m['start']}")
        markers = [e for e in entities if e.identifier != "Start"]
        if len(markers) != len(m["markers"]):
            fail(f"{where}: {len(markers)} markers, dunlua {len(m['markers'])}")
        for e, mk in zip(markers, m["markers"]):
            fields = {f.identifier: f.value for f in e.field_instances}
            # A name LDtk cannot spell, or one taken, is kept in a field.
            name = e.identifier if e.identifier == mk["name"] else fields.get("name")
            if name != mk["name"] or e.grid != [mk["x"], mk["y"]]:
                fail(f"{where}: marker {e.identifier} at {e.grid}, dunlua {mk}")
            if e.px != [mk["x"] * g + g // 2, mk["y"] * g + g // 2]:
                fail(f"{where}: marker {mk} at pixel {e.px}")
            # A prop whose name had to change has it, as given, in its
            # field's doc; the others are their identifiers.
            defn = next(d for d in project.defs.entities if d.identifier == e.identifier)
            field_of = {f.identifier: f.identifier for f in defn.field_defs}
            field_of.update({f.doc: f.identifier for f in defn.field_defs if f.doc is not None})
            for key, value in mk["props"].items():
                got = fields.get(field_of.get(key, identifier(key)))
                if not same(got, value) and not (isinstance(got, str) and got == str(value)):
                    fail(f"{where}: marker {mk['name']} prop {key} = {got!r}, dunlua {value!r}")
            given = "name" if e.identifier != mk["name"] else None
            extra = [k for k, v in fields.items() if v is not None and k != given
                     and k not in {field_of.get(p, identifier(p)) for p in mk["props"]}]
            if extra:
                fail(f"{where}: marker {mk['name']} has props {extra} dunlua did not give it")
        rooms = by_name["Rooms"].entity_instances
        if len(rooms) != len(m["rooms"]):
            fail(f"{where}: {len(rooms)} rooms, dunlua {len(m['rooms'])}")
        for e, r in zip(rooms, m["rooms"]):
            box = [e.px[0] // g, e.px[1] // g, e.width // g, e.height // g]
            if box != [r["x1"], r["y1"], r["x2"] - r["x1"] + 1, r["y2"] - r["y1"] + 1]:
                fail(f"{where}: room at {box}, dunlua {r}")
        fields = {f.identifier: f.value for f in level.field_instances}
        if fields["hash"] != m["hash"] or fields["seed"] != m["seed_string"]:
            fail(f"{where}: level fields {fields}")


pairs = sys.argv[1:]
for i in range(0, len(pairs), 2):
    check(pairs[i], pairs[i + 1])
print("ok", len(pairs) // 2)
