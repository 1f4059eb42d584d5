//! Making any map playable: tunnels that join every walkable region to the
//! largest, and doors where corridors enter rooms.

use std::collections::VecDeque;

use super::analysis::regions;
use crate::map::{Map, Tile};
use crate::rng::Rng;

impl Map {
    /// Joins every walkable region to the largest one with the shortest
    /// tunnel of `tile`, nearest region first, until one region is left.
    /// Tunnels never cut the map's outer ring. `rng` shuffles the search's
    /// direction order once per tunnel, so tunnels do not all bend alike.
    /// Returns how many tunnels were dug.
    pub fn connect_regions(&mut self, rng: &mut Rng, tile: Tile) -> usize {
        let found = regions(self);
        if found.len() <= 1 {
            return 0;
        }
        let (w, h) = (self.width(), self.height());
        let n = (w * h) as usize;
        // The region each walkable cell belongs to; 0 is the connected set.
        let mut owner = vec![usize::MAX; n];
        for (id, region) in found.iter().enumerate() {
            for &i in region.cells.indices() {
                owner[i as usize] = id;
            }
        }
        let mut joined = vec![false; found.len()];
        joined[0] = true;
        let mut tunnels = 0;
        let mut dirs = [(0i32, -1i32), (1, 0), (0, 1), (-1, 0)];
        loop {
            rng.shuffle(&mut dirs);
            let mut parent = vec![u32::MAX; n];
            let mut queue = VecDeque::new();
            for (i, &o) in owner.iter().enumerate() {
                if o != usize::MAX && joined[o] {
                    parent[i] = i as u32;
                    queue.push_back(i);
                }
            }
            let mut target = None;
            'search: while let Some(i) = queue.pop_front() {
                let (x, y) = (i as i32 % w, i as i32 / w);
                for (dx, dy) in dirs {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= w || ny >= h {
                        continue;
                    }
                    let j = (ny * w + nx) as usize;
                    if parent[j] != u32::MAX {
                        continue;
                    }
                    let on_ring = nx == 0 || ny == 0 || nx == w - 1 || ny == h - 1;
                    let walkable = owner[j] != usize::MAX;
                    if on_ring && !walkable {
                        continue;
                    }
                    parent[j] = i as u32;
                    if walkable && !joined[owner[j]] {
                        target = Some(j);
                        break 'search;
                    }
                    queue.push_back(j);
                }
            }
            let Some(end) = target else {
                return tunnels;
            };
            let region = owner[end];
            joined[region] = true;
            let mut i = parent[end] as usize;
            while owner[i] == usize::MAX || !joined[owner[i]] || owner[i] == region {
                if owner[i] == usize::MAX {
                    let (x, y) = (i as i32 % w, i as i32 / w);
                    let _ = self.set(x as i64, y as i64, tile);
                    owner[i] = 0;
                }
                if parent[i] as usize == i {
                    break;
                }
                i = parent[i] as usize;
            }
            tunnels += 1;
            if joined.iter().all(|&j| j) {
                return tunnels;
            }
        }
    }

    /// Puts a door (`door`) in each single-cell opening where a corridor
    /// enters a recorded room through its wall ring: the ring cell is
    /// walkable, its neighbours along the ring are not, the room's inside
    /// and the outside next to it are walkable, and no door is next to it
    /// already (never two doors side by side). Returns how many it placed.
    pub fn add_doors(&mut self, door: Tile) -> usize {
        let rooms = self.rooms().to_vec();
        let walkable = |m: &Map, x: i32, y: i32| m.is_walkable(x as i64, y as i64);
        let mut placed = 0;
        for room in rooms {
            let mut ring = Vec::new();
            for x in room.x1 + 1..room.x2 {
                ring.push((x, room.y1, (1, 0), (0, 1)));
                ring.push((x, room.y2, (1, 0), (0, -1)));
            }
            for y in room.y1 + 1..room.y2 {
                ring.push((room.x1, y, (0, 1), (1, 0)));
                ring.push((room.x2, y, (0, 1), (-1, 0)));
            }
            ring.sort_by_key(|&(x, y, _, _)| (y, x));
            for (x, y, (ax, ay), (ix, iy)) in ring {
                let is_opening = self.get(x as i64, y as i64).is_ok_and(|t| t != door)
                    && walkable(self, x, y)
                    && !walkable(self, x + ax, y + ay)
                    && !walkable(self, x - ax, y - ay)
                    && walkable(self, x + ix, y + iy)
                    && walkable(self, x - ix, y - iy);
                let door_near = (-1..=1).any(|dy| {
                    (-1..=1).any(|dx| {
                        self.get((x + dx) as i64, (y + dy) as i64)
                            .is_ok_and(|t| t == door)
                    })
                });
                if is_opening && !door_near {
                    let _ = self.set(x as i64, y as i64, door);
                    placed += 1;
                }
            }
        }
        placed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Rect;
    use crate::ops::unreachable_walkable;

    #[test]
    fn joins_every_region_to_the_largest() {
        let mut map = Map::from_ascii(
            "##########\n#@..#....#\n#...#....#\n#####..#.#\n#..###...#\n#..#######\n##########\n",
        )
        .unwrap();
        let mut rng = Rng::new(1);
        assert_eq!(map.connect_regions(&mut rng, Tile::FLOOR), 2);
        assert!(unreachable_walkable(&map).is_empty(), "\n{map}");
        assert_eq!(crate::ops::regions(&map).len(), 1);
        for x in 0..10 {
            assert_eq!(map.get(x, 0).unwrap(), Tile::WALL, "the outer ring stays");
        }
        assert_eq!(
            map.connect_regions(&mut rng, Tile::FLOOR),
            0,
            "nothing left to join"
        );
    }

    #[test]
    fn tunnels_are_shortest() {
        let mut map = Map::from_ascii("#######\n#..#..#\n#######\n").unwrap();
        map.connect_regions(&mut Rng::new(2), Tile::FLOOR);
        assert_eq!(map.to_string(), "#######\n#.....#\n#######\n");
    }

    #[test]
    fn doors_go_in_single_openings_only() {
        // A room (corners (1,1)-(5,4)) entered from the left by a corridor,
        // from below by a two-wide opening, and along its top wall.
        let mut map = Map::from_ascii(
            "########\n\
             ######.#\n\
             ##...#.#\n\
             ....##.#\n\
             ##...#.#\n\
             ###..#.#\n\
             ###..#.#\n\
             ########\n",
        )
        .unwrap();
        map.add_room(Rect::new(1, 1, 4, 4)).unwrap();
        assert_eq!(map.add_doors(Tile::DOOR), 1);
        assert_eq!(map.get(1, 3).unwrap(), Tile::DOOR);
        assert_eq!(
            map.get(3, 5).unwrap(),
            Tile::FLOOR,
            "a wide opening gets no door"
        );
        assert_eq!(map.add_doors(Tile::DOOR), 0, "doors are never doubled");
    }

    #[test]
    fn no_two_doors_side_by_side() {
        // Two rooms whose rings are one apart, joined straight through.
        let mut map = Map::from_ascii(
            "#########\n\
             #########\n\
             ##.###.##\n\
             ##.....##\n\
             ##.###.##\n\
             #########\n",
        )
        .unwrap();
        map.add_room(Rect::new(1, 1, 3, 4)).unwrap();
        map.add_room(Rect::new(5, 1, 3, 4)).unwrap();
        let placed = map.add_doors(Tile::DOOR);
        assert_eq!(
            placed, 1,
            "the second ring's opening is next to the first door\n{map}"
        );
        assert_eq!(
            map.to_string(),
            "#########\n#########\n##.###.##\n##..+..##\n##.###.##\n#########\n"
        );
    }
}
