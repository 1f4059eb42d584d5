"""Loads a dunlua .tmj with pytiled-parser (Python arcade's Tiled reader)
and a .tmx with pytmx (pygame's), and prints what each read as one JSON
object per line, for tests/tiled_clients.rs to compare with the map.

    python3 tiled_parsers.py MAP.tmj MAP.tmx
"""
import json
import pathlib
import sys
import warnings

warnings.filterwarnings("ignore")


def pytiled(path):
    import pytiled_parser

    m = pytiled_parser.parse_map(pathlib.Path(path))
    tiles_layer, objects_layer = m.layers
    (firstgid, tileset), = m.tilesets.items()
    return {
        "reader": "pytiled-parser",
        "size": [m.map_size.width, m.map_size.height],
        "tile": m.tile_size.width,
        "gids": [gid for row in tiles_layer.data for gid in row],
        "firstgid": firstgid,
        "tiles": {str(i): t.properties for i, t in tileset.tiles.items()},
        "solid": sorted(i for i, t in tileset.tiles.items() if t.objects is not None),
        "objects": [
            {"name": o.name, "class": o.class_, "x": o.coordinates.x, "y": o.coordinates.y,
             "properties": o.properties}
            for o in objects_layer.tiled_objects
        ],
        "properties": m.properties,
    }


def pytmx_(path):
    import pytmx

    m = pytmx.TiledMap(path)
    layer = m.layers[0]
    gids = []
    for y in range(m.height):
        for x in range(m.width):
            # pytmx renumbers gids internally; ask for the file's own.
            gid = layer.data[y][x]
            gids.append(m.tiledgidmap.get(gid, gid) if gid else 0)
    tiles, solid = {}, []
    for gid in range(1, m.maxgid):
        props = dict(m.get_tile_properties_by_gid(gid) or {})
        tile_id = props.get("id")
        if tile_id is None:
            continue
        if props.get("colliders"):
            solid.append(tile_id)
        tiles[str(tile_id)] = {k: props[k] for k in ("name", "glyph", "walkable", "transparent", "color") if k in props}
    return {
        "reader": "pytmx",
        "size": [m.width, m.height],
        "tile": m.tilewidth,
        "gids": gids,
        "firstgid": m.tilesets[0].firstgid,
        "tiles": tiles,
        "solid": sorted(solid),
        "objects": [
            {"name": o.name, "class": o.type, "x": o.x, "y": o.y, "properties": dict(o.properties)}
            for o in m.objects
        ],
        "properties": dict(m.properties),
    }


print(json.dumps(pytiled(sys.argv[1])))
print(json.dumps(pytmx_(sys.argv[2])))
