//! Carving: whole-map and rectangle fills, room interiors and tunnels.
//! Every primitive checks all its cells first, so a refused call changes
//! nothing, and nothing is silently clipped.

use crate::geom::Rect;
use crate::map::{Map, MapError, Tile};

impl Map {
    pub fn fill(&mut self, tile: Tile) {
        let (w, h) = (self.width(), self.height());
        self.cells_to_write(0, 0, w - 1, h - 1).fill(tile);
    }

    /// Sets every cell of the rect, corners included (malwoden's whole-rect rooms).
    pub fn fill_rect(&mut self, rect: &Rect, tile: Tile) -> Result<(), MapError> {
        self.check_rect(rect)?;
        self.paint(rect.x1, rect.y1, rect.x2, rect.y2, tile);
        Ok(())
    }

    /// Sets the rect's interior, leaving its one-tile ring as it was (the
    /// seeds' rooms). A rect too thin to have an interior carves nothing.
    pub fn carve_room(&mut self, rect: &Rect, tile: Tile) -> Result<(), MapError> {
        let (x1, y1, x2, y2) = rect.interior();
        if x1 > x2 || y1 > y2 {
            return Ok(());
        }
        self.check_rect(&Rect { x1, y1, x2, y2 })?;
        self.paint(x1, y1, x2, y2, tile);
        Ok(())
    }

    /// A horizontal line from `x1` to `x2` (both inclusive, either order) on row `y`.
    pub fn h_tunnel(&mut self, x1: i64, x2: i64, y: i64, tile: Tile) -> Result<(), MapError> {
        let (lo, hi) = (x1.min(x2), x1.max(x2));
        self.index(lo, y)?;
        self.index(hi, y)?;
        self.paint(lo as i32, y as i32, hi as i32, y as i32, tile);
        Ok(())
    }

    /// A vertical line from `y1` to `y2` (both inclusive, either order) in column `x`.
    pub fn v_tunnel(&mut self, y1: i64, y2: i64, x: i64, tile: Tile) -> Result<(), MapError> {
        let (lo, hi) = (y1.min(y2), y1.max(y2));
        self.index(x, lo)?;
        self.index(x, hi)?;
        self.paint(x as i32, lo as i32, x as i32, hi as i32, tile);
        Ok(())
    }

    /// An L-shaped tunnel from `a` to `b`, as the seeds' `tunnelBetween`:
    /// horizontal along `a`'s row then vertical along `b`'s column, or
    /// vertical along `a`'s column then horizontal along `b`'s row.
    pub fn l_tunnel(
        &mut self,
        (ax, ay): (i64, i64),
        (bx, by): (i64, i64),
        horizontal_first: bool,
        tile: Tile,
    ) -> Result<(), MapError> {
        // Both legs lie in the bounding box of a and b, so checking the two
        // ends checks everything and a refused call changes nothing.
        self.index(ax, ay)?;
        self.index(bx, by)?;
        if horizontal_first {
            self.h_tunnel(ax, bx, ay, tile)?;
            self.v_tunnel(ay, by, bx, tile)
        } else {
            self.v_tunnel(ay, by, ax, tile)?;
            self.h_tunnel(ax, bx, by, tile)
        }
    }

    /// Paints an inclusive, already-checked box.
    fn paint(&mut self, x1: i32, y1: i32, x2: i32, y2: i32, tile: Tile) {
        let width = self.width() as usize;
        let cells = self.cells_to_write(x1, y1, x2, y2);
        for y in y1 as usize..=y2 as usize {
            cells[y * width + x1 as usize..=y * width + x2 as usize].fill(tile);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walls(w: i64, h: i64) -> Map {
        Map::new(w, h).unwrap()
    }

    #[test]
    fn fill_sets_everything() {
        let mut map = walls(3, 2);
        map.fill(Tile::FLOOR);
        assert_eq!(map.to_string(), "...\n...\n");
    }

    #[test]
    fn fill_rect_includes_both_corners() {
        let mut map = walls(6, 5);
        map.fill_rect(&Rect::new(1, 1, 3, 2), Tile::FLOOR).unwrap();
        assert_eq!(map.to_string(), "######\n#....#\n#....#\n#....#\n######\n");
    }

    #[test]
    fn carve_room_leaves_the_ring() {
        let mut map = walls(7, 6);
        map.carve_room(&Rect::new(0, 0, 5, 4), Tile::FLOOR).unwrap();
        assert_eq!(
            map.to_string(),
            "#######\n#....##\n#....##\n#....##\n#######\n#######\n"
        );
    }

    #[test]
    fn carve_room_may_touch_the_edge_with_its_ring_only() {
        let mut map = walls(4, 4);
        map.carve_room(&Rect::new(0, 0, 3, 3), Tile::FLOOR).unwrap();
        assert_eq!(map.to_string(), "####\n#..#\n#..#\n####\n");
        let err = map
            .carve_room(&Rect::new(1, 1, 4, 2), Tile::FLOOR)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "Rect(x1=2, y1=2, x2=4, y2=2) reaches outside the 4x4 map"
        );
    }

    #[test]
    fn tunnels_are_inclusive_in_either_order() {
        let mut map = walls(5, 4);
        map.h_tunnel(3, 1, 1, Tile::FLOOR).unwrap();
        map.v_tunnel(2, 1, 4, Tile::DOOR).unwrap();
        assert_eq!(map.to_string(), "#####\n#...+\n####+\n#####\n");
    }

    #[test]
    fn l_tunnel_bends_where_the_seeds_bend() {
        let mut h = walls(5, 4);
        h.l_tunnel((0, 0), (3, 2), true, Tile::FLOOR).unwrap();
        assert_eq!(h.to_string(), "....#\n###.#\n###.#\n#####\n");
        let mut v = walls(5, 4);
        v.l_tunnel((0, 0), (3, 2), false, Tile::FLOOR).unwrap();
        assert_eq!(v.to_string(), ".####\n.####\n....#\n#####\n");
    }

    #[test]
    fn refused_calls_change_nothing() {
        let mut map = walls(4, 3);
        let before = map.clone();
        assert!(map.h_tunnel(0, 4, 1, Tile::FLOOR).is_err());
        assert!(map.v_tunnel(-1, 2, 1, Tile::FLOOR).is_err());
        assert!(map.l_tunnel((1, 1), (9, 1), false, Tile::FLOOR).is_err());
        assert!(map.fill_rect(&Rect::new(2, 0, 2, 2), Tile::FLOOR).is_err());
        assert_eq!(map, before);
    }
}
