//! How varied a generator is, for `check`: which seeds made identical
//! maps, which made near-duplicates (maps whose tiles differ in fewer
//! than a share of their cells), a spread figure, and how often each cell
//! is walkable over every seed (the heat map of `--html`).
//!
//! Nothing here compares all pairs of maps. Each map gets a [`Sketch`] on
//! the worker thread that made it: a one-permutation MinHash over the set
//! of its (level, cell, tile) triples, [`BINS`] bins. Two maps whose
//! tiles differ in a share `d` of their cells have Jaccard similarity
//! `(1 - d) / (1 + d)`, which the share of equal bins estimates. The bins
//! are cut into bands (locality-sensitive hashing, as many rows a band as
//! `--near` allows, [`Layout`]): near-duplicates share a band with high
//! probability and far maps almost never do. Seeds that share a band are
//! compared by their whole sketches, and the pairs whose estimate is close
//! enough are verified exactly by making both maps again from their seeds
//! and counting the cells that differ.
//! Everything is computed from per-seed data in seed order, so the result
//! is the same whatever the number of threads, and for merged shards.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use serde::Serialize;

use crate::generated::Generated;

/// Bins of the one-permutation MinHash (a power of two).
pub const BINS: usize = 512;
/// The most rows a band has (at the default `--near`).
const MAX_ROWS: usize = 16;
/// How sure the bands make finding a pair right at the threshold.
const RECALL: f64 = 0.999;
/// How many maps (the first in seed order) the spread figure samples;
/// every pair among them is estimated.
pub const SAMPLE: usize = 256;
/// The default `--near`: maps whose tiles differ in under 5% of cells.
pub const DEFAULT_NEAR: f64 = 0.05;
/// In each band's bucket, a map is a candidate with this many of the
/// maps before it (in seed order): bounds the pairs verified even when
/// every map shares a bucket.
const PER_BUCKET: usize = 2;
/// The most candidate pairs verified, per distinct map (beyond them the
/// report says the search was cut short).
const CANDIDATES_PER_MAP: usize = 16;
/// The pairs the report lists (all are counted).
pub const PAIRS_LISTED: usize = 100;
/// How many bytes of maps verification holds at once.
const VERIFY_BYTES: usize = 256 << 20;

/// What `check` is asked about variety.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Maps whose tiles differ in fewer than this share of cells are
    /// near-duplicates (0 < near <= [`MAX_NEAR`]).
    pub near: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { near: DEFAULT_NEAR }
    }
}

/// The largest `--near`: past half the cells, maps are not near.
pub const MAX_NEAR: f64 = 0.5;

/// Parses `--near`: a share of cells, greater than 0 and at most
/// [`MAX_NEAR`].
pub fn parse_near(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= MAX_NEAR => Ok(v),
        _ => Err(format!(
            "expected a share of cells above 0 and at most {MAX_NEAR} (0.05 is 5%), got '{text}'"
        )),
    }
}

/// One map's MinHash sketch: each bin's least value, cut to 16 bits
/// (two unequal values agree by chance once in 65536).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sketch {
    pub bins: [u16; BINS],
}

/// SplitMix64's finaliser: a fixed, well-mixed hash of a 64-bit value.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Simple tabulation hashing of a (level, cell, tile) triple: a random
/// table per byte of the key, XORed. Cheap (a few lookups a cell) and
/// good for MinHash (Dahlgaard, Knudsen, Thorup 2017); the tables are
/// fixed, so a map's sketch never changes.
struct Tabulation {
    /// Tables for the cell index's four bytes, the tile, and the level's
    /// two bytes.
    tables: [[u64; 256]; 7],
}

impl Tabulation {
    fn new() -> Tabulation {
        let mut tables = [[0u64; 256]; 7];
        for (t, table) in tables.iter_mut().enumerate() {
            for (b, v) in table.iter_mut().enumerate() {
                *v = mix(0x5ca1_ab1e_0000_0000 ^ (t as u64) << 8 ^ b as u64);
            }
        }
        Tabulation { tables }
    }
}

static TABULATION: std::sync::LazyLock<Tabulation> = std::sync::LazyLock::new(Tabulation::new);

/// The sketch of a dungeon's levels (one level for most scripts).
pub fn sketch(levels: &[Generated]) -> Sketch {
    let t = &TABULATION.tables;
    let mut bins = [u64::MAX; BINS];
    for (level, g) in levels.iter().enumerate() {
        let level_key = t[5][level & 255] ^ t[6][(level >> 8) & 255];
        // The index's upper bytes change every 256 cells: their part of
        // the hash is taken once a run of 256.
        for (run, cells) in g.map.cells().chunks(256).enumerate() {
            let upper =
                level_key ^ t[1][run & 255] ^ t[2][(run >> 8) & 255] ^ t[3][(run >> 16) & 255];
            for (low, tile) in t[0].iter().zip(cells) {
                let h = upper ^ low ^ t[4][tile.0 as usize];
                // The top bits choose the bin, the rest is the value.
                let bin = (h >> (64 - BINS.trailing_zeros())) as usize;
                let value = h & (u64::MAX >> BINS.trailing_zeros());
                if value < bins[bin] {
                    bins[bin] = value;
                }
            }
        }
    }
    densify(&mut bins);
    let mut sketch = Sketch { bins: [0; BINS] };
    for (k, v) in sketch.bins.iter_mut().zip(&bins) {
        *k = *v as u16;
    }
    sketch
}

/// Jaccard similarity of two maps with a share `d` of cells differing.
fn jaccard(d: f64) -> f64 {
    (1.0 - d) / (1.0 + d)
}

/// How the bins are cut into bands for a threshold, and the least
/// estimated similarity worth verifying.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Layout {
    pub rows: usize,
    pub bands: usize,
    /// Pairs whose share of equal bins is below this are not verified:
    /// four standard deviations under the similarity at the threshold.
    pub least_similarity: f64,
}

impl Layout {
    /// The most rows a band (so the fewest far candidates) that still
    /// finds a pair right at `near` with probability [`RECALL`].
    pub fn for_near(near: f64) -> Layout {
        let j = jaccard(near);
        let rows = (1..=MAX_ROWS)
            .rev()
            .find(|&r| {
                let bands = BINS / r;
                1.0 - (1.0 - j.powi(r as i32)).powi(bands as i32) >= RECALL
            })
            .unwrap_or(1);
        let sd = (j * (1.0 - j) / BINS as f64).sqrt();
        Layout {
            rows,
            bands: BINS / rows,
            least_similarity: j - 4.0 * sd - 2.0 / BINS as f64,
        }
    }
}

/// Fills empty bins (a map of fewer cells than bins) from the next full
/// one to the right, with the distance mixed in, so two maps with the
/// same cells fill them alike (rotation densification, Shrivastava & Li).
fn densify(bins: &mut [u64; BINS]) {
    if bins.iter().all(|&v| v == u64::MAX) {
        return;
    }
    let copy = *bins;
    for j in 0..BINS {
        if copy[j] != u64::MAX {
            continue;
        }
        let mut step = 1;
        while copy[(j + step) % BINS] == u64::MAX {
            step += 1;
        }
        bins[j] = mix(copy[(j + step) % BINS] ^ step as u64) >> BINS.trailing_zeros();
    }
}

/// The share of equal bins: an estimate of the Jaccard similarity.
fn similarity(a: &Sketch, b: &Sketch) -> f64 {
    let same = a.bins.iter().zip(&b.bins).filter(|(x, y)| x == y).count();
    same as f64 / BINS as f64
}

/// The share of cells differing between two maps, estimated from their
/// sketches (the inverse of [`jaccard`]).
fn estimated_distance(a: &Sketch, b: &Sketch) -> f64 {
    let j = similarity(a, b);
    (1.0 - j) / (1.0 + j)
}

/// A dungeon's tiles, all verification keeps of it: each level's size
/// and its cells, level after level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tiles {
    shape: Vec<(i32, i32)>,
    cells: Vec<u8>,
}

impl Tiles {
    pub fn of(levels: &[Generated]) -> Tiles {
        Tiles {
            shape: levels
                .iter()
                .map(|g| (g.map.width(), g.map.height()))
                .collect(),
            cells: levels
                .iter()
                .flat_map(|g| g.map.cells().iter().map(|t| t.0))
                .collect(),
        }
    }

    /// The share of cells in which two dungeons differ (1 when their
    /// levels differ in number or size).
    pub fn distance(&self, other: &Tiles) -> f64 {
        if self.shape != other.shape {
            return 1.0;
        }
        let differ = self
            .cells
            .iter()
            .zip(&other.cells)
            .filter(|(a, b)| a != b)
            .count();
        differ as f64 / self.cells.len().max(1) as f64
    }
}

/// How many maps had each cell walkable, for one map size (level 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heat {
    pub width: i32,
    pub height: i32,
    /// How many maps of this size were counted.
    pub maps: u64,
    /// Per cell, row by row.
    pub walkable: Vec<u32>,
}

impl Heat {
    fn new(width: i32, height: i32) -> Heat {
        Heat {
            width,
            height,
            maps: 0,
            walkable: vec![0; width as usize * height as usize],
        }
    }

    /// Adds another count of the same size.
    pub fn add(&mut self, other: &Heat) {
        self.maps += other.maps;
        for (a, b) in self.walkable.iter_mut().zip(&other.walkable) {
            *a += b;
        }
    }
}

/// The heat maps of every size seen, filled by the worker threads as
/// maps are made (sums, so the order they come in does not matter).
#[derive(Default)]
pub struct HeatCollector(Mutex<BTreeMap<(i32, i32), Heat>>);

impl HeatCollector {
    /// Counts level 1 of a dungeon.
    pub fn count(&self, levels: &[Generated]) {
        let Some(first) = levels.first() else {
            return;
        };
        let map = &first.map;
        let mut walkable = [false; 256];
        for (tile, kind) in map.tiles().iter() {
            walkable[tile.index()] = kind.walkable;
        }
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let heat = all
            .entry((map.width(), map.height()))
            .or_insert_with(|| Heat::new(map.width(), map.height()));
        heat.maps += 1;
        for (count, tile) in heat.walkable.iter_mut().zip(map.cells()) {
            *count += walkable[tile.index()] as u32;
        }
    }

    /// Adds a heat map counted elsewhere (a shard's).
    pub fn add(&self, heat: &Heat) {
        let mut all = self.0.lock().unwrap_or_else(|e| e.into_inner());
        all.entry((heat.width, heat.height))
            .or_insert_with(|| Heat::new(heat.width, heat.height))
            .add(heat);
    }

    /// Every size's heat map, smallest size first.
    pub fn into_heats(self) -> Vec<Heat> {
        self.0
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_values()
            .collect()
    }
}

/// Two seeds whose maps differ in fewer cells than the threshold.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NearPair {
    pub seeds: [u64; 2],
    /// The share of cells that differ.
    pub distance: f64,
}

/// The variety part of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Variety {
    /// Seeds that made a map (every other figure is over these).
    pub maps: u64,
    /// `--near`.
    pub near: f64,
    /// Seeds with the same dungeon hash, each group in seed order, groups
    /// by their first seed.
    pub identical: Vec<Vec<u64>>,
    /// Near-duplicate groups (seeds joined by a verified pair, each with
    /// the first seed of its identical group), in seed order.
    pub near_groups: Vec<Vec<u64>>,
    /// How many near pairs were verified.
    pub near_pairs: u64,
    /// The closest of them (at most [`PAIRS_LISTED`]), closest first.
    pub pairs: Vec<NearPair>,
    /// Candidate pairs the sketches proposed and verification compared.
    pub candidates: u64,
    /// Whether there were more candidates than are verified (a generator
    /// whose maps are nearly all alike): then some pairs may be missing.
    pub capped: bool,
    /// The mean share of cells differing between two maps, estimated over
    /// every pair of the first [`SAMPLE`] maps.
    pub mean_distance: Option<f64>,
    /// How many maps that sample holds.
    pub sample: u64,
    /// Shannon entropy (bits) of the room counts of the maps that passed
    /// (level 1).
    pub room_entropy: Option<f64>,
    /// How many different room counts there were.
    pub room_counts: u64,
    /// Level 1's walkable counts, for the size most maps had.
    #[serde(skip)]
    pub heat: Option<Heat>,
}

/// One seed, as the variety pass reads it.
pub(crate) struct SeedView<'a> {
    pub seed: u64,
    pub hash: Option<u64>,
    pub sketch: Option<&'a Sketch>,
    /// Rooms on level 1, for a seed that passed.
    pub rooms: Option<f64>,
}

/// Identical groups, and the candidate near pairs among one seed of each
/// distinct map: in each band's bucket, each seed with the
/// [`PER_BUCKET`] seeds before it, kept when their sketches are similar
/// enough. Pairs are (smaller, larger) seed.
pub(crate) fn candidates(seeds: &[SeedView], near: f64) -> Candidates {
    let mut by_hash: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for s in seeds {
        if let Some(h) = s.hash {
            by_hash.entry(h).or_default().push(s.seed);
        }
    }
    let mut identical: Vec<Vec<u64>> = by_hash.into_values().filter(|g| g.len() > 1).collect();
    identical.sort();
    let repeated: BTreeSet<u64> = identical
        .iter()
        .flat_map(|g| g[1..].iter().copied())
        .collect();
    let distinct: Vec<(u64, &Sketch)> = seeds
        .iter()
        .filter(|s| !repeated.contains(&s.seed))
        .filter_map(|s| Some((s.seed, s.sketch?)))
        .collect();
    let layout = Layout::for_near(near);
    let cap = CANDIDATES_PER_MAP * distinct.len() + 1000;
    let mut pairs = BTreeSet::new();
    let mut capped = false;
    // One band at a time: (band hash, position), sorted, so a bucket is a
    // run of equal hashes in seed order.
    let mut keys: Vec<(u64, usize)> = Vec::with_capacity(distinct.len());
    for band in 0..layout.bands {
        let rows = band * layout.rows..(band + 1) * layout.rows;
        keys.clear();
        keys.extend(distinct.iter().enumerate().map(|(i, (_, sketch))| {
            // Four bins to a word, one mix a word.
            let h = sketch.bins[rows.clone()]
                .chunks(4)
                .fold(mix(band as u64), |h, four| {
                    mix(h ^ four.iter().fold(0u64, |w, &v| w << 16 | v as u64))
                });
            (h, i)
        }));
        keys.sort_unstable();
        for run in keys.chunk_by(|a, b| a.0 == b.0) {
            for (k, &(_, i)) in run.iter().enumerate() {
                for &(_, before) in &run[k.saturating_sub(PER_BUCKET)..k] {
                    let (a, b) = (distinct[before], distinct[i]);
                    if similarity(a.1, b.1) >= layout.least_similarity {
                        if pairs.len() >= cap {
                            capped = true;
                            break;
                        }
                        pairs.insert((a.0, b.0));
                    }
                }
            }
        }
    }
    Candidates {
        identical,
        pairs: pairs.into_iter().collect(),
        capped,
    }
}

/// What [`candidates`] found.
pub(crate) struct Candidates {
    /// Groups of seeds with the same hash.
    pub identical: Vec<Vec<u64>>,
    /// Pairs to verify, (smaller, larger) seed, in order.
    pub pairs: Vec<(u64, u64)>,
    /// Whether more pairs were proposed than are verified.
    pub capped: bool,
}

/// Verifies candidate pairs exactly: `make` makes a seed's dungeon again.
/// Maps are held a chunk at a time (at most [`VERIFY_BYTES`]).
pub(crate) fn verify(
    pairs: &[(u64, u64)],
    near: f64,
    bytes_per_map: usize,
    make: impl Fn(&[u64]) -> BTreeMap<u64, Tiles>,
) -> Vec<NearPair> {
    let per_chunk = (VERIFY_BYTES / bytes_per_map.max(1)).max(2);
    let mut found = Vec::new();
    let mut start = 0;
    while start < pairs.len() {
        let mut seeds = BTreeSet::new();
        let mut end = start;
        while end < pairs.len() {
            let (a, b) = pairs[end];
            let new = !seeds.contains(&a) as usize + !seeds.contains(&b) as usize;
            if seeds.len() + new > per_chunk && end > start {
                break;
            }
            seeds.insert(a);
            seeds.insert(b);
            end += 1;
        }
        let maps = make(&seeds.into_iter().collect::<Vec<_>>());
        for &(a, b) in &pairs[start..end] {
            if let (Some(x), Some(y)) = (maps.get(&a), maps.get(&b)) {
                let d = x.distance(y);
                if d < near {
                    found.push(NearPair {
                        seeds: [a, b],
                        distance: d,
                    });
                }
            }
        }
        start = end;
    }
    found
}

/// Seeds joined by pairs, as groups in seed order (union-find).
fn groups(pairs: &[NearPair]) -> Vec<Vec<u64>> {
    let mut parent: BTreeMap<u64, u64> = BTreeMap::new();
    fn root(parent: &mut BTreeMap<u64, u64>, s: u64) -> u64 {
        let mut r = s;
        while let Some(&p) = parent.get(&r).filter(|&&p| p != r) {
            r = p;
        }
        parent.insert(s, r);
        r
    }
    for p in pairs {
        let (a, b) = (root(&mut parent, p.seeds[0]), root(&mut parent, p.seeds[1]));
        // The smaller seed is the root, so groups come out the same.
        parent.insert(a.max(b), a.min(b));
        parent.entry(a.min(b)).or_insert(a.min(b));
    }
    let seeds: Vec<u64> = parent.keys().copied().collect();
    let mut out: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for s in seeds {
        let r = root(&mut parent, s);
        out.entry(r).or_default().push(s);
    }
    out.into_values().collect()
}

/// The mean estimated distance over every pair of the first
/// [`SAMPLE`] sketched maps, and how many maps that is.
fn spread(seeds: &[SeedView]) -> (Option<f64>, u64) {
    let sample: Vec<&Sketch> = seeds.iter().filter_map(|s| s.sketch).take(SAMPLE).collect();
    let mut sum = 0.0;
    let mut n = 0u64;
    for (i, a) in sample.iter().enumerate() {
        for b in &sample[i + 1..] {
            sum += estimated_distance(a, b);
            n += 1;
        }
    }
    ((n > 0).then(|| sum / n as f64), sample.len() as u64)
}

/// Shannon entropy in bits of the values, and how many distinct ones.
fn entropy(values: impl Iterator<Item = f64>) -> (Option<f64>, u64) {
    let mut counts: BTreeMap<u64, u64> = BTreeMap::new();
    let mut total = 0u64;
    for v in values {
        *counts.entry(v.to_bits()).or_default() += 1;
        total += 1;
    }
    if total == 0 {
        return (None, 0);
    }
    let h = counts
        .values()
        .map(|&c| {
            let p = c as f64 / total as f64;
            -p * p.log2()
        })
        .sum::<f64>();
    // One value gives -0.0, which reads oddly.
    (Some(if h > 0.0 { h } else { 0.0 }), counts.len() as u64)
}

/// The whole variety figure from the seeds, the verified pairs and the
/// heat maps.
pub(crate) fn summarise(
    settings: Settings,
    seeds: &[SeedView],
    found: Candidates,
    mut pairs: Vec<NearPair>,
    heats: Vec<Heat>,
) -> Variety {
    let near_groups = groups(&pairs);
    pairs.sort_by(|a, b| {
        a.distance
            .total_cmp(&b.distance)
            .then(a.seeds.cmp(&b.seeds))
    });
    let near_pairs = pairs.len() as u64;
    pairs.truncate(PAIRS_LISTED);
    let (mean_distance, sample) = spread(seeds);
    let (room_entropy, room_counts) = entropy(seeds.iter().filter_map(|s| s.rooms));
    // The size most maps had; on a tie, the smallest.
    let heat = heats.into_iter().fold(None::<Heat>, |best, h| match best {
        Some(b) if b.maps >= h.maps => Some(b),
        _ => Some(h),
    });
    Variety {
        maps: seeds.iter().filter(|s| s.hash.is_some()).count() as u64,
        near: settings.near,
        identical: found.identical,
        near_groups,
        near_pairs,
        pairs,
        candidates: found.pairs.len() as u64,
        capped: found.capped,
        mean_distance,
        sample,
        room_entropy,
        room_counts,
        heat,
    }
}

/// A list of seeds as text, the first `most` of them.
fn seed_list(seeds: &[u64], most: usize) -> String {
    let mut text: Vec<String> = seeds.iter().take(most).map(|s| s.to_string()).collect();
    if seeds.len() > most {
        text.push(format!("and {} more", seeds.len() - most));
    }
    text.join(" ")
}

impl Variety {
    /// The report's variety lines.
    pub fn text(&self) -> String {
        let mut out = format!(
            "variety over {} maps (near-duplicates: under {}% of cells differ)\n",
            self.maps,
            percent(self.near)
        );
        let groups = |out: &mut String, what: &str, groups: &[Vec<u64>]| {
            if groups.is_empty() {
                out.push_str(&format!("  {what}: none\n"));
                return;
            }
            let seeds: usize = groups.iter().map(Vec::len).sum();
            out.push_str(&format!(
                "  {what}: {} group{}, {seeds} seeds\n",
                groups.len(),
                if groups.len() == 1 { "" } else { "s" }
            ));
            for g in groups.iter().take(10) {
                out.push_str(&format!("    seeds {}\n", seed_list(g, 20)));
            }
            if groups.len() > 10 {
                out.push_str(&format!("    and {} more groups\n", groups.len() - 10));
            }
        };
        groups(&mut out, "identical maps", &self.identical);
        groups(&mut out, "near-duplicates", &self.near_groups);
        if self.near_pairs > 0 {
            let closest: Vec<String> = self
                .pairs
                .iter()
                .take(5)
                .map(|p| {
                    let shown = if p.distance == 0.0 {
                        pair_difference(0.0)
                    } else {
                        format!("{}%", percent(p.distance))
                    };
                    format!("{}~{} ({shown})", p.seeds[0], p.seeds[1])
                })
                .collect();
            out.push_str(&format!(
                "    {} pair{} of {} candidates{}; closest {}\n",
                self.near_pairs,
                if self.near_pairs == 1 { "" } else { "s" },
                self.candidates,
                if self.capped {
                    " (cut short: more were proposed)"
                } else {
                    ""
                },
                closest.join(", ")
            ));
        }
        let mut spread = Vec::new();
        if let Some(d) = self.mean_distance {
            spread.push(format!(
                "mean tile distance {}% (est., every pair of {} maps)",
                percent(d),
                self.sample
            ));
        }
        if let Some(h) = self.room_entropy {
            spread.push(format!(
                "room-count entropy {h:.2} bits ({} values)",
                self.room_counts
            ));
        }
        if !spread.is_empty() {
            out.push_str(&format!("  spread: {}\n", spread.join(", ")));
        }
        out
    }
}

/// A share as a percentage with one decimal.
fn percent(share: f64) -> String {
    format!("{:.1}", share * 100.0)
}

/// How a near pair's maps differ, for a reader: a pair whose tiles are all
/// the same (but not identical maps: their markers, rooms or start differ)
/// printed as "0.0%" read as a contradiction of the identical groups.
pub(crate) fn pair_difference(distance: f64) -> String {
    if distance == 0.0 {
        "same tiles; markers, rooms or start differ".to_string()
    } else if distance < 0.0005 {
        "under 0.1% of cells differ".to_string()
    } else {
        format!("{}% of cells differ", percent(distance))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;

    /// Two maps with the same tiles but other content (a marker, the
    /// start) are a near pair at distance 0, said so rather than "0.0%",
    /// which read as a contradiction of the identical groups.
    #[test]
    fn a_pair_with_the_same_tiles_says_so() {
        assert_eq!(
            pair_difference(0.0),
            "same tiles; markers, rooms or start differ"
        );
        assert_eq!(pair_difference(0.0001), "under 0.1% of cells differ");
        assert_eq!(pair_difference(0.0234), "2.3% of cells differ");
    }

    fn one(text: &str) -> Vec<Generated> {
        let map = Map::from_ascii(text).unwrap();
        vec![Generated {
            map,
            provenance: crate::generated::Provenance {
                script: "x.lua".into(),
                name: "X".into(),
                seed: 1,
                attempt: 0,
                params: Default::default(),
                level: 1,
                levels: 1,
            },
            modules: vec![],
            replay: None,
            rejections: vec![],
            puzzle: None,
            work: 0,
            native_work: 0,
        }]
    }

    #[test]
    fn sketches_of_the_same_map_agree_and_of_far_maps_do_not() {
        let a = one("######\n#@...#\n#....#\n######\n");
        let b = one("######\n#@.#.#\n#....#\n######\n");
        assert_eq!(sketch(&a), sketch(&a.clone()));
        assert_ne!(sketch(&a), sketch(&b));
        let (ta, tb) = (Tiles::of(&a), Tiles::of(&b));
        assert!((ta.distance(&tb) - 1.0 / 24.0).abs() < 1e-12);
        assert_eq!(ta.distance(&Tiles::of(&one("####\n#@.#\n####\n"))), 1.0);
        assert_eq!(ta.distance(&Tiles::of(&[a[0].clone(), a[0].clone()])), 1.0);
    }

    #[test]
    fn near_maps_share_bands_and_far_ones_rarely() {
        // 80x50 rooms: one differing cell shares most bands; a different
        // layout shares none.
        let mut base = String::new();
        for y in 0..50 {
            for x in 0..80 {
                base.push(if (x + y * 7) % 5 == 0 { '.' } else { '#' });
            }
            base.push('\n');
        }
        let mut near = base.clone().into_bytes();
        near[3] = b'.';
        let far: String = base
            .lines()
            .map(|l| l.chars().rev().collect::<String>() + "\n")
            .collect();
        let [a, n, f] = [
            sketch(&one(&base)),
            sketch(&one(std::str::from_utf8(&near).unwrap())),
            sketch(&one(&far)),
        ];
        assert!(similarity(&a, &n) > 0.98, "{}", similarity(&a, &n));
        assert!(estimated_distance(&a, &f) > 0.2);
        let layout = Layout::for_near(DEFAULT_NEAR);
        assert_eq!((layout.rows, layout.bands), (16, 32));
        assert!(similarity(&a, &f) < layout.least_similarity);
        assert!(similarity(&a, &n) > layout.least_similarity);
        // A looser threshold takes shorter bands.
        assert!(Layout::for_near(0.2).rows < 16);
        let view = |seed, sketch| SeedView {
            seed,
            hash: Some(seed),
            sketch: Some(sketch),
            rooms: None,
        };
        let found = candidates(&[view(1, &a), view(2, &n), view(3, &f)], DEFAULT_NEAR);
        assert_eq!((found.pairs, found.capped), (vec![(1, 2)], false));
    }

    #[test]
    fn groups_join_pairs_and_entropy_counts_values() {
        let pair = |a, b| NearPair {
            seeds: [a, b],
            distance: 0.01,
        };
        assert_eq!(
            groups(&[pair(3, 9), pair(1, 4), pair(4, 9), pair(20, 21)]),
            vec![vec![1, 3, 4, 9], vec![20, 21]]
        );
        assert_eq!(entropy([2.0, 2.0].into_iter()), (Some(0.0), 1));
        assert_eq!(entropy([1.0, 2.0, 3.0, 4.0].into_iter()), (Some(2.0), 4));
        assert!(
            parse_near("0").is_err() && parse_near("NaN").is_err() && parse_near("0.6").is_err()
        );
        assert_eq!(parse_near("0.1"), Ok(0.1));
    }
}
