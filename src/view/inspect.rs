//! What the window knows about a level beyond its tiles, worked out once
//! per map on the worker thread that made it: each cell's region, its
//! walking distance from the start, whether it is buried rock, and the
//! map's hash. The mouse's status line, the overlays and the state line
//! read it; none of it is worked out on the window's thread.

use crate::map::Map;
use crate::ops::{buried_mask, dijkstra, regions};
use crate::params::ParamValue;

pub struct Inspection {
    width: i32,
    /// Each cell's walkable region, 1 for the largest, 0 for none.
    pub region: Vec<u32>,
    pub regions: u32,
    /// Each cell's walking distance from the start.
    pub distance: Vec<Option<i32>>,
    /// The cell farthest from the start, and how far.
    pub farthest: Option<(i32, i32, i32)>,
    pub buried: Vec<bool>,
    /// [`Map::hash64`] (a pass over every cell: a few milliseconds on a
    /// 2000x2000 map, which the window's thread must not spend).
    pub hash: u64,
}

impl Inspection {
    pub fn of(map: &Map) -> Inspection {
        let cells = map.cells().len();
        let mut region = vec![0; cells];
        let found = regions(map);
        for (i, r) in found.iter().enumerate() {
            for &c in r.cells.indices() {
                region[c as usize] = i as u32 + 1;
            }
        }
        let distances = map
            .start()
            .and_then(|(x, y)| dijkstra(map, &[(x as i64, y as i64)]).ok());
        let w = map.width();
        let distance = match &distances {
            Some(d) => (0..cells as i32).map(|i| d.get(i % w, i / w)).collect(),
            None => vec![None; cells],
        };
        Inspection {
            width: w,
            region,
            regions: found.len() as u32,
            distance,
            farthest: distances.and_then(|d| d.farthest()),
            buried: buried_mask(map),
            hash: map.hash64(),
        }
    }

    fn index(&self, x: i32, y: i32) -> usize {
        (y * self.width + x) as usize
    }

    pub fn region_at(&self, x: i32, y: i32) -> u32 {
        self.region[self.index(x, y)]
    }

    pub fn distance_at(&self, x: i32, y: i32) -> Option<i32> {
        self.distance[self.index(x, y)]
    }

    pub fn buried_at(&self, x: i32, y: i32) -> bool {
        self.buried[self.index(x, y)]
    }

    /// One line about a cell for the status line: position, tile, region,
    /// distance from the start, the rooms it is in and its markers.
    pub fn describe(&self, map: &Map, x: i32, y: i32) -> String {
        let Ok(tile) = map.get(x as i64, y as i64) else {
            return format!("({x},{y}) off the map");
        };
        let mut parts = vec![format!("({x},{y}) {}", map.tiles().kind(tile).name)];
        match self.region_at(x, y) {
            0 => {}
            r => parts.push(format!("region {r}/{}", self.regions)),
        }
        match self.distance_at(x, y) {
            Some(d) => parts.push(format!("{d} steps from start")),
            None if map.is_walkable(x as i64, y as i64) => parts.push("unreachable".into()),
            None => {}
        }
        for (i, (rect, details)) in map.rooms().iter().zip(map.room_details()).enumerate() {
            let inside = match &details.cells {
                Some(cells) => cells.contains(x, y),
                // A rect room is its interior, as `carve_room` carves it.
                None => rect.x1 < x && x < rect.x2 && rect.y1 < y && y < rect.y2,
            };
            if inside {
                let mut room = format!("room {}", i + 1);
                for label in [&details.name, &details.kind].into_iter().flatten() {
                    room.push_str(&format!(" {label}"));
                }
                parts.push(room);
            }
        }
        for m in map.markers().iter().filter(|m| (m.x, m.y) == (x, y)) {
            let props: Vec<String> = m
                .props
                .iter()
                .map(|(k, v)| match v {
                    ParamValue::Text(t) => format!("{k}={t}"),
                    other => format!("{k}={other}"),
                })
                .collect();
            if props.is_empty() {
                parts.push(format!("marker {}", m.name));
            } else {
                parts.push(format!("marker {} {{{}}}", m.name, props.join(", ")));
            }
        }
        parts.join(" | ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Rect;

    #[test]
    fn a_cell_described_by_everything_known_of_it() {
        let mut map = Map::from_ascii("#######\n#@..#.#\n#######\n").unwrap();
        map.add_shaped_room(
            Some(Rect::new(0, 0, 4, 2)),
            None,
            Some("hall".into()),
            Some("start".into()),
        )
        .unwrap();
        map.mark_with(
            3,
            1,
            "key",
            vec![("opens".into(), ParamValue::Text("vault".into()))],
        )
        .unwrap();
        let look = Inspection::of(&map);
        assert_eq!(
            look.describe(&map, 3, 1),
            "(3,1) floor | region 1/2 | 2 steps from start | room 1 hall start | marker key {opens=vault}"
        );
        assert_eq!(
            look.describe(&map, 5, 1),
            "(5,1) floor | region 2/2 | unreachable"
        );
        assert_eq!(look.describe(&map, 6, 2), "(6,2) wall");
        assert_eq!(look.describe(&map, 9, 9), "(9,9) off the map");
        assert_eq!(look.farthest, Some((3, 1, 2)));
        assert!(
            !look.buried_at(6, 2) && !look.buried_at(0, 0),
            "every wall here touches floor"
        );
    }
}
