//! Readable rock: the wall cells nobody can see from anywhere, so viewers
//! draw them dark and rooms and corridors stand out, as most roguelikes
//! draw unexplored rock.

use crate::map::Map;

/// Whether a cell lets the eye or the feet through.
fn open(map: &Map, x: i32, y: i32) -> bool {
    map.get(x as i64, y as i64).is_ok_and(|t| {
        let kind = map.tiles().kind(t);
        kind.walkable || kind.transparent
    })
}

/// For every cell, row by row: whether it is buried rock, a cell of the
/// built-in `wall` kind with no 8-neighbour that is walkable or
/// transparent (off the map counts as rock). Only `wall`, as the guide
/// says: a script's own opaque kinds (trees, lava rock) are always drawn.
pub fn buried_mask(map: &Map) -> Vec<bool> {
    let (w, h) = (map.width(), map.height());
    let mut mask = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            mask.push(is_buried(map, x, y));
        }
    }
    mask
}

/// Whether the cell (x, y), on the map, is buried rock (see [`buried_mask`]).
pub fn is_buried(map: &Map, x: i32, y: i32) -> bool {
    if map.get(x as i64, y as i64) != Ok(crate::map::Tile::WALL) {
        return false;
    }
    for dy in -1..=1 {
        for dx in -1..=1 {
            if (dx, dy) != (0, 0) && open(map, x + dx, y + dy) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_wall_kind_is_ever_buried() {
        let mut map = Map::from_ascii("#####\n#####\n#####\n").unwrap();
        let tree = map
            .tiles_mut()
            .define(crate::map::TileKind {
                name: "tree".into(),
                glyph: '♣',
                color: crate::map::Rgb(0, 200, 0),
                background: crate::map::Rgb(0, 0, 0),
                walkable: false,
                transparent: false,
            })
            .unwrap();
        assert!(is_buried(&map, 2, 1), "a wall deep in rock");
        map.set(2, 1, tree).unwrap();
        assert!(
            !is_buried(&map, 2, 1),
            "an opaque kind of the script's is drawn"
        );
        assert!(is_buried(&map, 0, 0), "the walls round it stay dark");
    }

    #[test]
    fn only_rock_out_of_sight_is_buried() {
        let map = Map::from_ascii(
            "#######\n\
             #######\n\
             ##@..##\n\
             #######\n\
             ###~###\n\
             #######\n\
             #######\n",
        )
        .unwrap();
        let mask = buried_mask(&map);
        let drawn: String = mask
            .chunks(7)
            .map(|row| {
                row.iter()
                    .map(|&b| if b { 'x' } else { 'o' })
                    .collect::<String>()
                    + "\n"
            })
            .collect();
        assert_eq!(
            drawn,
            "xxxxxxx\n\
             xooooox\n\
             xooooox\n\
             xooooox\n\
             xxoooxx\n\
             xxoooxx\n\
             xxxxxxx\n",
            "walls next to floor or to (transparent) water stay; the rest is buried"
        );
        assert!(!is_buried(&map, 3, 4), "water is not rock");
    }
}
