//! A straightforward pure-Rust Grogue (part 3) generator on dunlua's RNG,
//! written the way the tutorial writes it: a grid of booleans, nested
//! loops, every new room tested against every accepted one. It shares only
//! the RNG with the product, so agreeing with it checks the host, the
//! primitives and rooms.lua together.

use dunlua::Rng;

/// `NewRectangularRoom`: corners `(x, y)` and `(x + w, y + h)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub x1: i32,
    pub y1: i32,
    pub x2: i32,
    pub y2: i32,
}

impl Room {
    fn center(&self) -> (i32, i32) {
        ((self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2)
    }

    fn intersects_with(&self, other: &Room) -> bool {
        self.x1 <= other.x2 && self.x2 >= other.x1 && self.y1 <= other.y2 && self.y2 >= other.y1
    }
}

/// The finished level: floor cells, rooms in order, the player's start.
pub struct Level {
    pub width: i32,
    pub height: i32,
    pub floor: Vec<bool>,
    pub rooms: Vec<Room>,
    pub start: (i32, i32),
}

impl Level {
    /// The level in dunlua's text form (`#` wall, `.` floor, `@` start).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                out.push(if (x, y) == self.start {
                    '@'
                } else if self.floor[(y * self.width + x) as usize] {
                    '.'
                } else {
                    '#'
                });
            }
            out.push('\n');
        }
        out
    }

    fn carve(&mut self, x: i32, y: i32) {
        self.floor[(y * self.width + x) as usize] = true;
    }

    fn horizontal_tunnel(&mut self, x1: i32, x2: i32, y: i32) {
        for x in x1.min(x2)..=x1.max(x2) {
            self.carve(x, y);
        }
    }

    fn vertical_tunnel(&mut self, y1: i32, y2: i32, x: i32) {
        for y in y1.min(y2)..=y1.max(y2) {
            self.carve(x, y);
        }
    }
}

/// Grogue's `createTiles` with the draw order the guide's Determinism chapter specifies.
pub fn grogue(seed: u64, width: i32, height: i32, max_rooms: i32, min: i32, max: i32) -> Level {
    let mut rng = Rng::new(seed);
    let mut level = Level {
        width,
        height,
        floor: vec![false; (width * height) as usize],
        rooms: Vec::new(),
        start: (0, 0),
    };
    for _ in 0..=max_rooms {
        let w = min + rng.int((max - min + 1) as u64) as i32;
        let h = min + rng.int((max - min + 1) as u64) as i32;
        let x = rng.int((width - w) as u64) as i32;
        let y = rng.int((height - h) as u64) as i32;
        let room = Room {
            x1: x,
            y1: y,
            x2: x + w,
            y2: y + h,
        };
        if !level.rooms.iter().any(|r| room.intersects_with(r)) {
            level.rooms.push(room);
        }
    }
    for i in 0..level.rooms.len() {
        let room = level.rooms[i];
        for x in room.x1 + 1..room.x2 {
            for y in room.y1 + 1..room.y2 {
                level.carve(x, y);
            }
        }
        if i > 0 {
            let (sx, sy) = level.rooms[i - 1].center();
            let (ex, ey) = room.center();
            if rng.int(2) == 0 {
                level.horizontal_tunnel(sx, ex, sy);
                level.vertical_tunnel(sy, ey, ex);
            } else {
                level.vertical_tunnel(sy, ey, sx);
                level.horizontal_tunnel(sx, ex, ey);
            }
        }
    }
    level.start = level.rooms[0].center();
    level
}
