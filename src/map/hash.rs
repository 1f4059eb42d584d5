//! A stable 64-bit fingerprint of a map (size, tile kinds, cells, start,
//! markers): FNV-1a over a fixed byte layout, the same on every platform
//! and run, so tests and the window's state dump can pin a map in 16 hex
//! digits.

use super::Map;
use crate::params::ParamValue;

struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn int(&mut self, v: i64) {
        self.bytes(&v.to_le_bytes());
    }

    fn text(&mut self, s: &str) {
        self.int(s.len() as i64);
        self.bytes(s.as_bytes());
    }
}

impl Map {
    /// The map's fingerprint; changes when any tile, kind, the start or a
    /// marker changes.
    pub fn hash64(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.text("dunlua-map-1");
        h.int(self.width() as i64);
        h.int(self.height() as i64);
        h.int(self.tiles().len() as i64);
        for (_, kind) in self.tiles().iter() {
            h.text(&kind.name);
            h.int(kind.glyph as i64);
        }
        let cells: Vec<u8> = self.cells().iter().map(|t| t.0).collect();
        h.bytes(&cells);
        match self.start() {
            Some((x, y)) => {
                h.int(x as i64);
                h.int(y as i64);
            }
            None => h.int(-1),
        }
        h.int(self.markers().len() as i64);
        for m in self.markers() {
            h.int(m.x as i64);
            h.int(m.y as i64);
            h.text(&m.name);
            // Only markers with data add bytes, so maps without any keep
            // the hashes they always had.
            if !m.props.is_empty() {
                h.int(-2);
                h.int(m.props.len() as i64);
                for (key, value) in &m.props {
                    h.text(key);
                    match value {
                        ParamValue::Integer(v) => {
                            h.int(0);
                            h.int(*v);
                        }
                        ParamValue::Number(v) => {
                            h.int(1);
                            h.bytes(&v.to_bits().to_le_bytes());
                        }
                        ParamValue::Boolean(v) => {
                            h.int(2);
                            h.int(*v as i64);
                        }
                        ParamValue::Text(v) => {
                            h.int(3);
                            h.text(v);
                        }
                    }
                }
            }
        }
        h.0
    }
}

/// One fingerprint for the maps of many seeds: FNV-1a over each seed and its
/// map's [`Map::hash64`] (8 little-endian bytes each), in the order given.
/// `dunlua check` prints it over the seeds that made a map, so any caller
/// (a game generating the same seeds) can show it makes the same maps.
pub fn digest(seeds_and_hashes: impl IntoIterator<Item = (u64, u64)>) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.text("dunlua-digest-1");
    for (seed, hash) in seeds_and_hashes {
        h.bytes(&seed.to_le_bytes());
        h.bytes(&hash.to_le_bytes());
    }
    h.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Tile;

    #[test]
    fn any_change_changes_the_hash() {
        let base = Map::from_ascii("####\n#@.#\n####\n").unwrap();
        let h = base.hash64();
        assert_eq!(h, base.clone().hash64());
        let mut tile = base.clone();
        tile.set(2, 1, Tile::DOOR).unwrap();
        let mut start = base.clone();
        start.set_start(2, 1).unwrap();
        let mut marked = base.clone();
        marked.mark(2, 1, "gold").unwrap();
        let mut with_data = marked.clone();
        with_data
            .mark_with(
                2,
                1,
                "gold",
                vec![("amount".into(), ParamValue::Integer(3))],
            )
            .unwrap();
        assert_ne!(
            with_data.hash64(),
            marked.hash64(),
            "a marker's data counts"
        );
        for other in [tile, start, marked] {
            assert_ne!(other.hash64(), h);
        }
    }

    #[test]
    fn the_digest_depends_on_every_seed_and_order() {
        let d = digest([(1, 10), (2, 20)]);
        assert_eq!(d, digest(vec![(1, 10), (2, 20)]));
        assert_ne!(d, digest([(2, 20), (1, 10)]));
        assert_ne!(d, digest([(1, 10), (2, 21)]));
        assert_ne!(d, digest([(1, 10)]));
    }

    #[test]
    fn the_hash_is_pinned() {
        // Checked against a Python transcription of the layout; a change here
        // changes every pinned hash, so bump "dunlua-map-1" with it.
        let map = Map::from_ascii("####\n#@.#\n####\n").unwrap();
        assert_eq!(format!("{:016x}", map.hash64()), "23847fa6a266ab1e");
    }
}
