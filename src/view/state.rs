//! What the window shows, as plain data: the map, the replay position, the
//! player, field of view, zoom, overlays, what the mouse points at. Every
//! key and mouse action goes through [`ViewState::apply`], which returns
//! what the window loop must do besides (generate, save, quit), so the
//! behaviour is tested without a window.

use std::time::Duration;

use super::grid::Grid;
use super::input::Action;
use super::inspect::Inspection;
use super::keys::{lock_at, Keys};
use super::tuning::Tuning;
use crate::generated::Generated;
use crate::map::{Map, Tile};
use crate::ops::field_of_view;
use crate::render::MarkerLooks;

/// How far the player sees with field of view on.
pub const FOV_RADIUS: i32 = 10;

/// Pixels per cell the zoom steps through: coloured blocks below the
/// 8-px font, glyphs from 8 up.
pub const CELL_SIZES: [usize; 15] = [1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 20, 24, 32, 40, 48];

/// What a map shows over its tiles (`M` cycles them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Overlay {
    #[default]
    None,
    /// Each recorded room's outline and index.
    Rooms,
    /// Each walkable region in its own colour.
    Regions,
    /// The walking distance from the start as heat, the farthest cell marked.
    Distance,
    /// Each marker's name.
    Markers,
}

impl Overlay {
    fn next(self) -> Overlay {
        match self {
            Overlay::None => Overlay::Rooms,
            Overlay::Rooms => Overlay::Regions,
            Overlay::Regions => Overlay::Distance,
            Overlay::Distance => Overlay::Markers,
            Overlay::Markers => Overlay::None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Overlay::None => "none",
            Overlay::Rooms => "rooms",
            Overlay::Regions => "regions",
            Overlay::Distance => "distance",
            Overlay::Markers => "markers",
        }
    }
}

/// What the window loop does after an action, besides redrawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Nothing,
    Quit,
    /// Generate this seed (with the current parameters).
    Generate(u64),
    /// Generate a random seed.
    RandomSeed,
    /// The parameters changed: generate the same seed with them.
    Regenerate,
    Save,
    /// Make the pictures of the grid just opened (`state.grid`).
    StartGrid,
}

/// Each level's [`Inspection`].
pub fn inspect_all(levels: &[Generated]) -> Vec<Inspection> {
    levels.iter().map(|g| Inspection::of(&g.map)).collect()
}

/// How a cell is lit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    Seen,
    Remembered,
    Unknown,
}

pub struct ViewState {
    /// Every level of the dungeon (one for most scripts).
    levels: Vec<Generated>,
    /// The level shown, an index into `levels`.
    level: usize,
    pub gen_time: Duration,
    /// The cells at the current replay step.
    shown: Vec<Tile>,
    pub step: usize,
    pub player: (i32, i32),
    pub fov: bool,
    visible: Vec<bool>,
    /// Indices set in `visible`, to clear them cheaply on the next move.
    visible_list: Vec<usize>,
    remembered: Vec<bool>,
    /// Pixels per cell, one of [`CELL_SIZES`].
    pub cell: usize,
    /// The pixels the map is drawn in (the window less the status line),
    /// which `0` fits the map into.
    pub view: (usize, usize),
    /// Buried rock drawn dark (`W` toggles).
    pub dark_rock: bool,
    pub overlay: Overlay,
    /// The cell under the mouse, if on the map.
    pub hover: Option<(i32, i32)>,
    /// Each level's regions, distances and buried rock (worked out on the
    /// worker that made the levels, so a big map does not stall the window).
    inspections: Vec<Inspection>,
    /// How markers are drawn: the dungeon's looks, so a name looks alike on
    /// every level.
    marker_looks: MarkerLooks,
    /// Replay playback speed (see [`ViewState::replay_frames`]): 0 is a
    /// quarter of a second a step; each step up halves the time.
    pub speed: i32,
    /// The replay was stepped or played since the map came.
    stepped: bool,
    /// A slow replay's progress towards its next step, in replay-lengths
    /// per frame (a step is due every `frames` of them).
    replay_carry: u64,
    /// A new map is being generated (a reload or another seed).
    pub generating: bool,
    /// The seed grid, while it is shown.
    pub grid: Option<Grid>,
    pub help: bool,
    /// The last reload's error, shown over the last good map.
    pub error: Option<String>,
    /// Whether the replay is playing as an animation.
    pub playing: bool,
    /// A short message for the status line (saved files, ...).
    pub notice: Option<String>,
    pub reloads: u64,
    /// The map's hash, computed once per map.
    hash: u64,
    /// The script's parameters as the keys tune them.
    pub tuning: Option<Tuning>,
    /// The keys the player picked up and the locks they opened.
    keys: Keys,
}

/// The name of the tile kind at a cell of `map`, if the cell is on it.
fn kind_at(map: &Map, x: i32, y: i32) -> Option<&str> {
    let tile = map.get(x as i64, y as i64).ok()?;
    Some(map.tiles().kind(tile).name.as_str())
}

impl ViewState {
    /// The window's state on the first of `levels` (at least one).
    pub fn new(levels: Vec<Generated>, gen_time: Duration, cell: usize) -> ViewState {
        let inspections = inspect_all(&levels);
        ViewState::inspected(levels, inspections, gen_time, cell)
    }

    /// [`ViewState::new`] with each level's [`Inspection`] already made.
    pub fn inspected(
        levels: Vec<Generated>,
        inspections: Vec<Inspection>,
        gen_time: Duration,
        cell: usize,
    ) -> ViewState {
        assert!(!levels.is_empty(), "a run makes at least one level");
        assert_eq!(levels.len(), inspections.len(), "an inspection per level");
        let first = &levels[0];
        let cells = first.map.cells().len();
        let first_hash = inspections[0].hash;
        let mut state = ViewState {
            shown: first.map.cells().to_vec(),
            step: 0,
            player: first.map.start().unwrap_or((0, 0)),
            fov: false,
            visible: vec![false; cells],
            visible_list: Vec::new(),
            remembered: vec![false; cells],
            cell,
            view: (0, 0),
            dark_rock: true,
            overlay: Overlay::None,
            hover: None,
            inspections,
            marker_looks: MarkerLooks::of_levels(levels.iter().map(|g| &g.map)),
            speed: 0,
            replay_carry: 0,
            stepped: false,
            generating: false,
            grid: None,
            help: false,
            error: None,
            playing: false,
            notice: None,
            reloads: 0,
            tuning: None,
            hash: first_hash,
            keys: Keys::default(),
            levels,
            level: 0,
            gen_time,
        };
        state.step = state.replay_len();
        state.look();
        state.arrive();
        state
    }

    /// A new dungeon (reload or another seed): the same level is shown (the
    /// last one if the new dungeon has fewer), so a designer working on
    /// level 3 stays there through saves and seeds; the player goes to its
    /// start, the replay to its end, memory is cleared and any error
    /// dismissed. An open seed grid stays open (a save while it is shown
    /// remakes its pictures; see the window loop).
    pub fn replace(&mut self, levels: Vec<Generated>, gen_time: Duration) {
        let inspections = inspect_all(&levels);
        drop(self.replace_inspected(levels, inspections, gen_time));
    }

    /// [`ViewState::replace`] with each level's [`Inspection`] already
    /// made. Returns the state replaced: freeing a big map's levels, replay
    /// and inspections takes milliseconds, which the window spends on
    /// another thread.
    pub fn replace_inspected(
        &mut self,
        levels: Vec<Generated>,
        inspections: Vec<Inspection>,
        gen_time: Duration,
    ) -> ViewState {
        let (cell, view, fov, help) = (self.cell, self.view, self.fov, self.help);
        let (dark_rock, overlay, speed) = (self.dark_rock, self.overlay, self.speed);
        let reloads = self.reloads;
        let tuning = self.tuning.take();
        let grid = self.grid.take();
        let level = self.level;
        let old = std::mem::replace(
            self,
            ViewState::inspected(levels, inspections, gen_time, cell),
        );
        if level > 0 {
            self.show_level(level.min(self.levels.len() - 1), None);
        }
        self.view = view;
        self.fov = fov;
        self.help = help;
        (self.dark_rock, self.overlay, self.speed) = (dark_rock, overlay, speed);
        self.reloads = reloads;
        self.tuning = tuning;
        self.grid = grid;
        self.look();
        old
    }

    /// The regions, distances and buried rock of the level shown.
    pub fn inspection(&self) -> &Inspection {
        &self.inspections[self.level]
    }

    /// How markers are drawn, on every level of the dungeon shown.
    pub fn marker_looks(&self) -> &MarkerLooks {
        &self.marker_looks
    }

    /// The level shown.
    pub fn generated(&self) -> &Generated {
        &self.levels[self.level]
    }

    /// Every level of the dungeon shown.
    pub fn levels_made(&self) -> &[Generated] {
        &self.levels
    }

    /// The level shown (1-based) and how many there are.
    pub fn level(&self) -> (usize, usize) {
        (self.level + 1, self.levels.len())
    }

    /// `>`: down the stairs the player stands on, to the next level; `<`:
    /// up. They go where the completion proof says the game takes them
    /// (`src/proof`, the guide's Completion chapter), so a way the proof
    /// finds is one the window can walk: down to the next level's start,
    /// up to the `stairs_down` at the same cell of the level above, or
    /// when there is none there, its first `stairs_down` in row order.
    /// Returns why not when they cannot go.
    pub fn take_stairs(&mut self, down: bool) -> Result<(), String> {
        let (x, y) = self.player;
        let here = self.map().tiles().kind(self.shown(x, y)).name.clone();
        let (want, to) = if down {
            ("stairs_down", self.level + 1)
        } else {
            ("stairs_up", self.level.wrapping_sub(1))
        };
        if here != want {
            let key = if down { '>' } else { '<' };
            return Err(format!("{key} takes the {want}; you are on {here}"));
        }
        if to >= self.levels.len() {
            return Err(if down {
                "these stairs lead nowhere: this is the last level".into()
            } else {
                "these stairs lead nowhere: this is the first level".into()
            });
        }
        let arrive = if down {
            None
        } else {
            let above = &self.levels[to].map;
            let is_down = |x: i32, y: i32| kind_at(above, x, y) == Some("stairs_down");
            let (w, h) = (above.width(), above.height());
            if is_down(x, y) {
                Some((x, y))
            } else {
                (0..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .find(|&(x, y)| is_down(x, y))
            }
        };
        self.show_level(to, arrive);
        Ok(())
    }

    /// Stepping onto a cell of a kind the script declares `one_way`
    /// (a chasm): the player drops onto the same cell of the level below,
    /// and on through any one-way cell they land on, as the completion
    /// proof has it. On the last level there is nothing below: such cells
    /// are walls. Returns whether they fell.
    fn drop_through(&mut self, x: i32, y: i32) -> bool {
        // A level below that does not hold the cell (levels of one dungeon
        // have one size; a caller's may not) is no way down.
        let falls = |s: &ViewState, level: usize| {
            level + 1 < s.levels.len()
                && s.is_one_way(level, x, y)
                && s.levels[level + 1].map.in_bounds(x as i64, y as i64)
        };
        if !falls(self, self.level) {
            return false;
        }
        let mut to = self.level + 1;
        while falls(self, to) {
            to += 1;
        }
        self.show_level(to, Some((x, y)));
        true
    }

    /// Whether the cell of level `level` (an index) is of a kind the
    /// script declares `one_way`.
    fn is_one_way(&self, level: usize, x: i32, y: i32) -> bool {
        let g = &self.levels[level];
        g.puzzle.as_ref().is_some_and(|p| {
            kind_at(&g.map, x, y).is_some_and(|k| p.one_way.iter().any(|o| o == k))
        })
    }

    /// The lock rule of the shown cell's kind, if the script declares it
    /// a lock.
    fn lock_rule(&self, x: i32, y: i32) -> Option<&crate::proof::LockRule> {
        let g = self.generated();
        lock_at(g.puzzle.as_deref()?, &g.map, x, y)
    }

    /// Whether the player may stand on or pass (x, y) now without doing
    /// anything: a walkable cell that is no lock, or a lock they opened
    /// or hold the kept key of (a lock is shut until opened, whatever its
    /// kind's `walkable` flag, as the proof has it).
    fn passable(&self, x: i32, y: i32) -> bool {
        match self.lock_rule(x, y) {
            Some(rule) => self.keys.is_open(self.level, rule, x, y),
            None => self.map().is_walkable(x as i64, y as i64),
        }
    }

    /// Opens the consumed lock at (x, y) with a held key, saying so;
    /// false when it is no such lock or no key is held.
    fn open_lock(&mut self, x: i32, y: i32) -> bool {
        let Some(rule) = self.lock_rule(x, y).cloned() else {
            return false;
        };
        let g = &self.levels[self.level];
        if !self.keys.open(self.level, &g.map, &rule, x, y) {
            return false;
        }
        let left = self.keys.count(&rule.key);
        self.notice = Some(format!(
            "spent a {} on the {} at ({x},{y}) ({left} left)",
            rule.key, rule.kind
        ));
        true
    }

    /// Why the lock at (x, y) keeps the player out.
    fn shut_notice(&self, x: i32, y: i32) -> Option<String> {
        let rule = self.lock_rule(x, y)?;
        Some(format!(
            "the {} at ({x},{y}) needs a {}",
            rule.kind, rule.key
        ))
    }

    /// The player arrived at their cell: they pick up the keys marked there.
    fn arrive(&mut self) {
        let (x, y) = self.player;
        let g = &self.levels[self.level];
        let Some(puzzle) = g.puzzle.as_deref() else {
            return;
        };
        let picked = self.keys.pick_up(self.level, puzzle, &g.map, x, y);
        if !picked.is_empty() {
            self.notice = Some(format!(
                "picked up {} (keys: {})",
                picked.join(", "),
                self.keys.text()
            ));
        }
    }

    /// Shows level `to` (an index) from its end, the player at `at` or at
    /// its start.
    fn show_level(&mut self, to: usize, at: Option<(i32, i32)>) {
        self.level = to;
        let g = &self.levels[to];
        let cells = g.map.cells().len();
        self.shown = g.map.cells().to_vec();
        self.player = at.or(g.map.start()).unwrap_or((0, 0));
        self.visible = vec![false; cells];
        self.visible_list.clear();
        self.remembered = vec![false; cells];
        self.hash = self.inspections[to].hash;
        self.hover = None;
        self.playing = false;
        self.stepped = false;
        self.step = self.replay_len();
        self.look();
        self.arrive();
    }

    pub fn map(&self) -> &Map {
        &self.generated().map
    }

    pub fn seed(&self) -> u64 {
        self.generated().provenance.seed
    }

    /// Moves the player one step unless the target is off the map or not
    /// walkable (a one-way cell drops them to the level below instead);
    /// returns whether it moved. A diagonal step needs both cells beside
    /// it passable (Brogue's rule: no squeezing between two walls, or
    /// round a door's edge): every step is then one the completion proof's
    /// four-way walk can make too (in two), so the window never walks
    /// round a lock the proof says gates the way (keys.lua's doors at
    /// corridor crossings could be passed diagonally). A lock lets the
    /// player in as the proof's does (see [`Keys`]): open, its kept key
    /// held, or a consumed key spent on it.
    pub fn try_move(&mut self, dx: i32, dy: i32) -> bool {
        let (px, py) = self.player;
        let (x, y) = (px + dx, py + dy);
        // Standing in a shut lock (dropped into it, or starting there):
        // out only once it is open, as the proof has it.
        if self.lock_rule(px, py).is_some() && !self.passable(px, py) && !self.open_lock(px, py) {
            let why = self.shut_notice(px, py).unwrap_or_default();
            self.notice = Some(format!("stuck: {why}, and you stand in it"));
            return false;
        }
        // Dropped onto rock: stuck there, as the proof has it.
        if self.lock_rule(px, py).is_none() && !self.map().is_walkable(px as i64, py as i64) {
            self.notice = Some(format!("({px},{py}): fallen into rock, stuck"));
            return false;
        }
        if dx != 0 && dy != 0 && !(self.passable(x, py) && self.passable(px, y)) {
            return false;
        }
        if self.drop_through(x, y) {
            return true;
        }
        // A one-way cell with no level below is a wall.
        if self.is_one_way(self.level, x, y) {
            return false;
        }
        if !self.passable(x, y) && !self.open_lock(x, y) {
            if let Some(why) = self.shut_notice(x, y) {
                self.notice = Some(why);
            }
            return false;
        }
        self.player = (x, y);
        self.look();
        self.arrive();
        true
    }

    pub fn toggle_fov(&mut self) {
        self.fov = !self.fov;
        self.look();
    }

    /// Recomputes what the player sees, remembering it.
    fn look(&mut self) {
        for &i in &self.visible_list {
            self.visible[i] = false;
        }
        self.visible_list.clear();
        if !self.fov {
            return;
        }
        let w = self.map().width() as usize;
        let (px, py) = self.player;
        let mut seen = Vec::new();
        field_of_view(self.map(), px, py, FOV_RADIUS, |x, y| {
            seen.push(y as usize * w + x as usize)
        });
        for i in seen {
            self.visible[i] = true;
            self.remembered[i] = true;
            self.visible_list.push(i);
        }
    }

    pub fn sight(&self, x: i32, y: i32) -> Sight {
        let i = y as usize * self.map().width() as usize + x as usize;
        if !self.fov || self.visible[i] {
            Sight::Seen
        } else if self.remembered[i] {
            Sight::Remembered
        } else {
            Sight::Unknown
        }
    }

    /// The tile shown at a cell (at the current replay step).
    pub fn shown(&self, x: i32, y: i32) -> Tile {
        self.shown[y as usize * self.map().width() as usize + x as usize]
    }

    pub fn replay_len(&self) -> usize {
        self.generated().replay.as_ref().map_or(0, |r| r.len())
    }

    /// Moves the replay to step `to` (clamped); 0 is before the first step.
    pub fn step_to(&mut self, to: usize) {
        if let Some(replay) = &self.levels[self.level].replay {
            self.step = replay.seek(&mut self.shown, self.step, to);
        }
    }

    pub fn step_by(&mut self, delta: i64) {
        let to = (self.step as i64 + delta).max(0) as usize;
        self.step_to(to);
    }

    /// The label of the step last applied, if any.
    pub fn step_label(&self) -> Option<&str> {
        let replay = self.generated().replay.as_ref()?;
        self.step
            .checked_sub(1)
            .map(|i| replay.steps()[i].label.as_str())
    }

    /// Whether the replay is somewhere before its end, or being stepped or
    /// played: then the cells the last step changed are highlighted, and
    /// markers and the start show only once placed.
    pub fn replaying(&self) -> bool {
        self.replay_len() > 0 && (self.step < self.replay_len() || self.stepped)
    }

    /// The cells (row-major indices) the step last applied changed, to
    /// highlight while replaying.
    pub fn changed_cells(&self) -> Vec<usize> {
        let Some(replay) = &self.generated().replay else {
            return Vec::new();
        };
        match self.step.checked_sub(1) {
            Some(i) if self.replaying() => replay.steps()[i]
                .changes
                .iter()
                .map(|c| c.index as usize)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// How many of the map's markers are shown, and where the start is, at
    /// the current replay step (all of them, and the start, at the end).
    pub fn placed(&self) -> (usize, Option<(i32, i32)>) {
        let map = self.map();
        match &self.generated().replay {
            Some(replay) if self.step < replay.len() => match self.step.checked_sub(1) {
                Some(i) => {
                    let step = &replay.steps()[i];
                    (step.markers.min(map.markers().len()), step.start)
                }
                None => (0, None),
            },
            _ => (map.markers().len(), map.start()),
        }
    }

    /// Starts playing the generation from its first step, which shows at
    /// the next frame.
    pub fn play(&mut self) {
        self.stepped = true;
        self.step_to(0);
        let len = self.replay_len() as u64;
        self.replay_carry = self.replay_frames().saturating_sub(len);
        self.playing = len > 0;
    }

    /// The frames a whole replay takes at the current speed: at speed 0 a
    /// quarter of a second a step at 60 frames a second, so a designer can
    /// follow it whatever the count (27 steps take 6.75 s), but at least 2
    /// and at most 12 seconds in all; each speed up halves it, each speed
    /// down doubles it (at least one frame).
    pub fn replay_frames(&self) -> u64 {
        let len = self.replay_len() as u64;
        let base = (len * 15).clamp(120, 720);
        let frames = if self.speed >= 0 {
            base >> self.speed.clamp(0, 6)
        } else {
            base << (-self.speed).clamp(0, 6)
        };
        frames.max(1)
    }

    /// One animation frame: the steps due at the pace of
    /// [`ViewState::replay_frames`] (whole numbers: the rest waits for the
    /// next frame); stops at the end.
    pub fn tick(&mut self) {
        if !self.playing {
            return;
        }
        let frames = self.replay_frames();
        self.replay_carry += self.replay_len() as u64;
        let due = self.replay_carry / frames;
        self.replay_carry %= frames;
        self.step_by(due as i64);
        self.playing = self.step < self.replay_len();
    }

    /// One step along [`CELL_SIZES`].
    pub fn zoom_by(&mut self, delta: i64) {
        let at = CELL_SIZES.iter().position(|&c| c >= self.cell).unwrap_or(0) as i64;
        let to = (at + delta).clamp(0, CELL_SIZES.len() as i64 - 1);
        self.cell = CELL_SIZES[to as usize];
    }

    /// The largest cell size at which the whole map fits in the view.
    pub fn fit(&mut self) {
        let map = self.map();
        let per_cell =
            (self.view.0 / map.width() as usize).min(self.view.1 / map.height() as usize);
        self.cell = CELL_SIZES
            .iter()
            .rev()
            .copied()
            .find(|&c| c <= per_cell)
            .unwrap_or(CELL_SIZES[0]);
    }

    /// What the keys and mouse do while the seed grid is shown: pick a
    /// picture, open it, or close the grid.
    fn apply_in_grid(&mut self, action: Action) -> Effect {
        let Some(grid) = &mut self.grid else {
            return Effect::Nothing;
        };
        let open = match action {
            Action::Move(dx, dy) => {
                grid.select_by(dx, dy);
                None
            }
            Action::GridSelect(i) if i < grid.len() => {
                grid.selected = i;
                None
            }
            Action::GridOpen(i) if i < grid.len() => Some(grid.seed(i)),
            Action::PlayReplay => Some(grid.selected_seed()),
            Action::ToggleGrid | Action::Quit => {
                self.grid = None;
                None
            }
            Action::ToggleHelp => {
                self.help = !self.help;
                None
            }
            _ => None,
        };
        match open {
            Some(seed) => {
                self.grid = None;
                self.generate(seed)
            }
            None => Effect::Nothing,
        }
    }

    /// Does what `action` asks and says what the window loop must do.
    pub fn apply(&mut self, action: Action) -> Effect {
        // Esc closes what is open, the innermost first; only with nothing
        // open does it quit.
        let action = match action {
            Action::Back if self.help => {
                self.help = false;
                return Effect::Nothing;
            }
            Action::Back if self.grid.is_some() => Action::ToggleGrid,
            Action::Back if self.overlay != Overlay::None => {
                self.overlay = Overlay::None;
                return Effect::Nothing;
            }
            Action::Back => Action::Quit,
            other => other,
        };
        if self.grid.is_some() {
            return self.apply_in_grid(action);
        }
        match action {
            Action::ToggleGrid => {
                let map = (self.map().width(), self.map().height());
                self.grid = Some(Grid::new(self.seed(), self.view, map));
                return Effect::StartGrid;
            }
            Action::GridSelect(_) | Action::GridOpen(_) | Action::Back => {}
            Action::Quit => return Effect::Quit,
            Action::Move(dx, dy) => {
                self.try_move(dx, dy);
            }
            Action::ZoomIn => self.zoom_by(1),
            Action::ZoomOut => self.zoom_by(-1),
            Action::FitMap => self.fit(),
            Action::ToggleFov => self.toggle_fov(),
            Action::ToggleRock => self.dark_rock = !self.dark_rock,
            Action::CycleOverlay => self.overlay = self.overlay.next(),
            Action::ToggleHelp => self.help = !self.help,
            Action::NextSeed => return self.generate(self.seed().wrapping_add(1)),
            Action::PrevSeed => return self.generate(self.seed().wrapping_sub(1)),
            Action::RandomSeed => {
                self.generating = true;
                return Effect::RandomSeed;
            }
            Action::Save => return Effect::Save,
            Action::StepBack | Action::StepForward | Action::FirstStep | Action::LastStep => {
                self.playing = false;
                self.stepped = true;
                match action {
                    Action::StepBack => self.step_by(-1),
                    Action::StepForward => self.step_by(1),
                    Action::FirstStep => self.step_to(0),
                    _ => self.step_to(usize::MAX),
                }
            }
            Action::PlayReplay => self.play(),
            Action::ReplaySlower => self.speed = (self.speed - 1).max(-6),
            Action::ReplayFaster => self.speed = (self.speed + 1).min(6),
            Action::NextParam => {
                if let Some(t) = &mut self.tuning {
                    t.select_next();
                }
            }
            Action::ParamDown | Action::ParamUp | Action::ResetParams => {
                let changed = self.tuning.as_mut().is_some_and(|t| match action {
                    Action::ResetParams => t.reset(),
                    _ => t.step(action == Action::ParamUp),
                });
                if changed {
                    self.generating = true;
                    return Effect::Regenerate;
                }
            }
            Action::Descend | Action::Ascend => {
                self.notice = Some(match self.take_stairs(action == Action::Descend) {
                    Ok(()) => {
                        let (level, of) = self.level();
                        format!("level {level} of {of}")
                    }
                    Err(why) => why,
                });
            }
            Action::Hover(cell) => {
                self.hover = cell.filter(|&(x, y)| self.map().in_bounds(x as i64, y as i64));
            }
            Action::Click(x, y) => self.walk_to(x, y),
        }
        Effect::Nothing
    }

    fn generate(&mut self, seed: u64) -> Effect {
        self.generating = true;
        Effect::Generate(seed)
    }

    /// A click: the player goes to a walkable cell of their own region
    /// (one they could walk to); anything else says why not. Where the
    /// script declares locks, "could walk to" is through the locks open to
    /// the player now (no key is spent or picked up on the way).
    fn walk_to(&mut self, x: i32, y: i32) {
        if !self.map().in_bounds(x as i64, y as i64) {
            return;
        }
        let (px, py) = self.player;
        let has_locks = self
            .generated()
            .puzzle
            .as_ref()
            .is_some_and(|p| !p.locks.is_empty());
        let reachable = if has_locks {
            self.passable(x, y) && self.walk_reaches(x, y)
        } else {
            let here = self.inspection().region_at(px, py);
            self.map().is_walkable(x as i64, y as i64)
                && here != 0
                && self.inspection().region_at(x, y) == here
        };
        if reachable {
            self.player = (x, y);
            self.look();
            self.arrive();
        } else {
            self.notice = Some(format!("({x},{y}) cannot be reached from here"));
        }
    }

    /// Whether a four-way walk over cells passable now (no one-way cell)
    /// leads from the player to (x, y).
    fn walk_reaches(&self, x: i32, y: i32) -> bool {
        let map = self.map();
        let w = map.width() as usize;
        let index = |x: i32, y: i32| y as usize * w + x as usize;
        let mut seen = vec![false; map.cells().len()];
        let mut todo = vec![self.player];
        seen[index(self.player.0, self.player.1)] = true;
        while let Some((cx, cy)) = todo.pop() {
            if (cx, cy) == (x, y) {
                return true;
            }
            for (nx, ny) in [(cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)] {
                if map.in_bounds(nx as i64, ny as i64)
                    && !seen[index(nx, ny)]
                    && self.passable(nx, ny)
                    && !self.is_one_way(self.level, nx, ny)
                {
                    seen[index(nx, ny)] = true;
                    todo.push((nx, ny));
                }
            }
        }
        false
    }

    /// The tile drawn at a cell: the replay's, or dark rock.
    pub fn is_dark(&self, x: i32, y: i32) -> bool {
        if !self.dark_rock {
            return false;
        }
        // Before the replay's end, rock is judged on the map as it is at
        // this step (what is not dug yet is buried yet); at the end, on the
        // finished map's worked-out mask.
        if self.step < self.replay_len() {
            return self.buried_at_step(x, y);
        }
        self.inspection().buried_at(x, y)
    }

    /// [`crate::ops::is_buried`] on the cells shown at this replay step.
    fn buried_at_step(&self, x: i32, y: i32) -> bool {
        let map = self.map();
        if self.shown(x, y) != Tile::WALL {
            return false;
        }
        let open = |x: i32, y: i32| {
            map.in_bounds(x as i64, y as i64) && {
                let kind = map.tiles().kind(self.shown(x, y));
                kind.walkable || kind.transparent
            }
        };
        !(-1..=1).any(|dy| (-1..=1).any(|dx| (dx, dy) != (0, 0) && open(x + dx, y + dy)))
    }

    /// Parameters that differ from the script's defaults, as `k=v`.
    pub fn changed_params(&self) -> Vec<String> {
        self.tuning
            .as_ref()
            .map(Tuning::overrides)
            .unwrap_or_default()
    }

    pub fn title(&self) -> String {
        let map = self.map();
        let changed = self.changed_params();
        let params = if changed.is_empty() {
            String::new()
        } else {
            format!(" - {}", changed.join(" "))
        };
        format!(
            "dunlua - {} - seed {}{params} - {}x{} - {:.1} ms",
            self.generated().provenance.name,
            self.seed(),
            map.width(),
            map.height(),
            self.gen_time.as_secs_f64() * 1000.0
        )
    }

    pub fn status(&self) -> String {
        if let Some(grid) = &self.grid {
            let level = match self.level() {
                (_, 1) => String::new(),
                (k, n) => format!(", level {k}/{n}"),
            };
            return format!(
                "seed grid from {}{level}: seed {} selected ({}/{} made) | arrows or mouse pick, Enter or click opens, G closes",
                grid.first,
                grid.selected_seed(),
                grid.done(),
                grid.len()
            );
        }
        let (x, y) = self.player;
        let tile = self.map().tiles().kind(self.shown(x, y)).name.clone();
        let mut parts = vec![];
        if self.generating {
            parts.push("generating...".to_string());
        }
        match self.hover {
            // Mid-replay, what is on screen: the finished map's regions,
            // distances and rooms are not there yet (hovering described
            // floor where the screen showed rock).
            Some((hx, hy)) if self.step < self.replay_len() => {
                let shown = match self.map().in_bounds(hx as i64, hy as i64) {
                    true => self.map().tiles().kind(self.shown(hx, hy)).name.as_str(),
                    false => "off the map",
                };
                parts.push(format!("({hx},{hy}) {shown}"));
            }
            Some((hx, hy)) => parts.push(self.inspection().describe(self.map(), hx, hy)),
            None => parts.push(format!("({x},{y}) {tile}")),
        }
        parts.push(format!("seed {}", self.seed()));
        let len = self.replay_len();
        if len > 0 {
            let label = self.step_label().unwrap_or("start");
            parts.push(format!("step {}/{} {}", self.step, len, label));
        }
        if self.levels.len() > 1 {
            parts.push(format!("level {}/{}", self.level + 1, self.levels.len()));
        }
        if self.fov {
            parts.push("fov".into());
        }
        if let Some(param) = self.tuning.as_ref().and_then(Tuning::selected_text) {
            parts.push(format!("param {param} (, .)"));
        }
        if self.overlay != Overlay::None {
            parts.push(format!("overlay {}", self.overlay.name()));
        }
        parts.push(format!("{}px", self.cell));
        let held = self.keys.text();
        if !held.is_empty() {
            parts.push(format!("holding {held}"));
        }
        if let Some(notice) = &self.notice {
            parts.push(notice.clone());
        }
        parts.push("? keys".into());
        parts.join(" | ")
    }

    /// One line for the state file tests read: `key=value` pairs.
    pub fn state_line(&self) -> String {
        let changed = self.changed_params();
        let params = if changed.is_empty() {
            "default".to_string()
        } else {
            changed.join(",")
        };
        let error = match &self.error {
            Some(e) => e.lines().next().unwrap_or("").replace(' ', "_"),
            None => "none".into(),
        };
        format!(
            "seed={} level={}/{} player={},{} hash={:016x} step={}/{} fov={} cell={} rock={} overlay={} help={} hover={} generating={} grid={} reloads={} params={} held={} error={}",
            self.seed(),
            self.level + 1,
            self.levels.len(),
            self.player.0,
            self.player.1,
            self.hash,
            self.step,
            self.replay_len(),
            self.fov,
            self.cell,
            if self.dark_rock { "dark" } else { "all" },
            self.overlay.name(),
            self.help,
            self.hover
                .map_or("none".to_string(), |(x, y)| format!("{x},{y}")),
            self.generating,
            self.grid.as_ref().map_or("none".to_string(), |g| format!(
                "{}+{}:{}/{}",
                g.first,
                g.selected,
                g.done(),
                g.len()
            )),
            self.reloads,
            params,
            match self.keys.text() {
                held if held.is_empty() => "none".into(),
                held => held.replace(", ", ",").replace(' ', "_"),
            },
            error
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated::Provenance;
    use crate::geom::Rect;
    use crate::params::Params;
    use crate::replay::Journal;

    fn generated(text: &str) -> Generated {
        Generated {
            map: Map::from_ascii(text).unwrap(),
            provenance: Provenance {
                script: "x.lua".into(),
                name: "X".into(),
                seed: 7,
                attempt: 0,
                params: Params::default(),
                level: 1,
                levels: 1,
            },
            modules: vec![],
            replay: None,
            rejections: vec![],
            work: 0,
            native_work: 0,
            puzzle: None,
        }
    }

    fn one(text: &str) -> Vec<Generated> {
        vec![generated(text)]
    }

    /// Level `level` of `levels`, its map drawn as text.
    fn level(text: &str, level: u32, levels: u32) -> Generated {
        let mut g = generated(text);
        g.provenance.level = level;
        g.provenance.levels = levels;
        g
    }

    #[test]
    fn a_new_dungeon_keeps_the_level_shown() {
        let dungeon = |levels: u32| -> Vec<Generated> {
            (1..=levels)
                .map(|k| {
                    let row = ["#...#", "#.#.#", "#..##"][k as usize - 1];
                    level(&format!("#####\n#@.>#\n{row}\n#####\n"), k, levels)
                })
                .collect()
        };
        let mut s = ViewState::new(dungeon(3), Duration::ZERO, 1);
        s.try_move(1, 0);
        s.try_move(1, 0);
        s.take_stairs(true).unwrap();
        s.try_move(1, 0);
        assert_eq!((s.level(), s.player), ((2, 3), (2, 1)));
        s.replace(dungeon(3), Duration::ZERO);
        assert_eq!(
            (s.level(), s.player),
            ((2, 3), (1, 1)),
            "the same level, at its start"
        );
        assert_eq!(s.hash, s.generated().map.hash64());
        s.replace(dungeon(1), Duration::ZERO);
        assert_eq!(s.level(), (1, 1), "a shallower dungeon: its last level");
    }

    /// Up the stairs to the `stairs_down` at the same cell above, else the
    /// first in row order (the proof's rule; the window took the player
    /// back where they last stood, so a way the proof found through a
    /// second `stairs_down` could not be walked).
    #[test]
    fn stairs_up_lead_to_the_stairs_down_the_proof_takes() {
        let mut s = ViewState::new(
            vec![
                level("#######\n#@>#.>#\n#######\n", 1, 2),
                level("#######\n#.@..<#\n#######\n", 2, 2),
            ],
            Duration::ZERO,
            1,
        );
        s.try_move(1, 0);
        s.take_stairs(true).unwrap();
        assert_eq!((s.level(), s.player), ((2, 2), (2, 1)));
        for _ in 0..3 {
            s.try_move(1, 0);
        }
        s.take_stairs(false).unwrap();
        assert_eq!(
            (s.level(), s.player),
            ((1, 2), (5, 1)),
            "the stairs_down at the same cell, not where they went down"
        );
        let mut s = ViewState::new(
            vec![
                level("######\n#@.>.#\n#..>.#\n######\n", 1, 2),
                level("######\n#.@..#\n#...<#\n######\n", 2, 2),
            ],
            Duration::ZERO,
            1,
        );
        s.try_move(1, 1);
        s.try_move(1, 0);
        s.take_stairs(true).unwrap();
        s.try_move(1, 1);
        s.try_move(1, 0);
        s.take_stairs(false).unwrap();
        assert_eq!(
            s.player,
            (3, 1),
            "none at that cell: the first in row order"
        );
    }

    /// A cell of a kind the script declares `one_way` drops the player
    /// onto the same cell of the level below (crypt.lua's only way down
    /// could not be taken in the window); on the last level it is a wall.
    #[test]
    fn a_one_way_cell_drops_the_player_to_the_level_below() {
        let puzzle = std::sync::Arc::new(crate::proof::Puzzle {
            goals: vec!["exit".into()],
            secrets: true,
            locks: Vec::new(),
            one_way: vec!["water".into()],
        });
        let with_puzzle = |mut g: Generated| {
            g.puzzle = Some(puzzle.clone());
            g
        };
        let mut s = ViewState::new(
            vec![
                with_puzzle(level("######\n#@.~.#\n######\n", 1, 3)),
                with_puzzle(level("######\n#@.~.#\n######\n", 2, 3)),
                with_puzzle(level("######\n#@.~.#\n######\n", 3, 3)),
            ],
            Duration::ZERO,
            1,
        );
        s.try_move(1, 0);
        assert!(s.try_move(1, 0), "onto the water: down");
        assert_eq!(
            (s.level(), s.player),
            ((3, 3), (3, 1)),
            "and on through the water below it, to the last level"
        );
        assert!(
            !s.try_move(-1, 0),
            "landed in the last level's water, a wall there: stuck"
        );
        let mut s = ViewState::new(
            vec![with_puzzle(level("######\n#@.~.#\n######\n", 1, 1))],
            Duration::ZERO,
            1,
        );
        s.try_move(1, 0);
        assert!(!s.try_move(1, 0), "on the last level it is not walkable");
        assert_eq!(s.player, (2, 1));
        // Onto rock below: stuck there, as the proof has it.
        let mut s = ViewState::new(
            vec![
                with_puzzle(level("######\n#@~..#\n######\n", 1, 2)),
                with_puzzle(level("######\n#@#..#\n######\n", 2, 2)),
            ],
            Duration::ZERO,
            1,
        );
        assert!(s.try_move(1, 0));
        assert_eq!((s.level(), s.player), ((2, 2), (2, 1)));
        assert!(!s.try_move(1, 0) && !s.try_move(-1, 0), "stuck in the rock");
        assert!(s.status().contains("stuck"), "{}", s.status());
        // A level below too small for the cell: no way down.
        let mut s = ViewState::new(
            vec![
                with_puzzle(level("#######\n#@...~#\n#######\n", 1, 2)),
                with_puzzle(level("###\n#@#\n###\n", 2, 2)),
            ],
            Duration::ZERO,
            1,
        );
        for _ in 0..4 {
            s.try_move(1, 0);
        }
        assert_eq!((s.level(), s.player), ((1, 2), (4, 1)));
    }

    /// A puzzle of `locks` (kind, key, consumed) over the maps given.
    fn with_locks(mut g: Generated, locks: &[(&str, &str, bool)]) -> Generated {
        g.puzzle = Some(std::sync::Arc::new(crate::proof::Puzzle {
            goals: vec!["exit".into()],
            secrets: true,
            locks: locks
                .iter()
                .map(|&(kind, key, consumed)| crate::proof::LockRule {
                    kind: kind.into(),
                    key: key.into(),
                    consumed,
                })
                .collect(),
            one_way: Vec::new(),
        }));
        g
    }

    /// A kept key: the door (walkable as a tile) is shut until the key is
    /// picked up, then open both ways while it is held (the window walked
    /// through keys.lua's locked door without the key the proof needs).
    #[test]
    fn a_lock_is_shut_until_its_key_is_picked_up() {
        let mut g = generated("########\n#@..+..#\n########\n");
        g.map.mark(2, 1, "key").unwrap();
        let mut s = ViewState::new(
            vec![with_locks(g, &[("door", "key", false)])],
            Duration::ZERO,
            1,
        );
        assert!(s.try_move(1, 0));
        assert!(s.status().contains("picked up key"), "{}", s.status());
        assert!(s.state_line().contains("held=key "), "{}", s.state_line());
        assert!(
            s.try_move(1, 0) && s.try_move(1, 0),
            "into the door with the key"
        );
        assert!(s.try_move(1, 0) && s.try_move(-1, 0), "through and back");
        assert_eq!(s.player, (4, 1));
        // The same door without walking over the key.
        let mut g = generated("########\n#.@.+..#\n########\n");
        g.map.mark(1, 1, "key").unwrap();
        let mut s = ViewState::new(
            vec![with_locks(g, &[("door", "key", false)])],
            Duration::ZERO,
            1,
        );
        assert!(s.try_move(1, 0));
        assert!(!s.try_move(1, 0), "shut without the key");
        assert_eq!(s.player, (3, 1));
        assert!(
            s.status().contains("the door at (4,1) needs a key"),
            "{}",
            s.status()
        );
        s.walk_to(6, 1);
        assert_eq!(s.player, (3, 1), "no click across the shut door");
        assert!(s.state_line().contains("held=none "), "{}", s.state_line());
    }

    /// A consumed key opens one lock (its touching cells of the kind: a
    /// two-wide door is one lock) and is gone; that lock stays open; a
    /// lock of a kind that is not walkable opens too (shut "whatever its
    /// walkable flag", open once opened).
    #[test]
    fn a_consumed_key_opens_one_lock_for_good() {
        let mut g = generated("##########\n#@.+..#..#\n#..+..~..#\n##########\n");
        g.map.mark(2, 1, "small_key").unwrap();
        let g = with_locks(
            g,
            &[("door", "small_key", true), ("water", "small_key", true)],
        );
        let mut s = ViewState::new(vec![g], Duration::ZERO, 1);
        assert!(s.try_move(1, 0));
        assert!(s.try_move(1, 0), "spends the key on the door");
        assert!(
            s.status()
                .contains("spent a small_key on the door at (3,1) (0 left)"),
            "{}",
            s.status()
        );
        assert!(s.try_move(1, 0) && s.try_move(-1, 0) && s.try_move(-1, 0));
        assert!(
            s.try_move(0, 1) && s.try_move(1, 0),
            "the door's other cell is the same lock, open"
        );
        assert!(s.try_move(1, 0) && s.try_move(1, 0));
        assert_eq!(s.player, (5, 2));
        assert!(!s.try_move(1, 0), "the water lock needs another key");
        assert!(
            s.status().contains("the water at (6,2) needs a small_key"),
            "{}",
            s.status()
        );
        // A key for it: the water (not walkable as a tile) opens, and is
        // walked through.
        let mut g = generated("########\n#@.~..~#\n########\n");
        g.map.mark(2, 1, "small_key").unwrap();
        let g = with_locks(g, &[("water", "small_key", true)]);
        let mut s = ViewState::new(vec![g], Duration::ZERO, 1);
        assert!(s.try_move(1, 0) && s.try_move(1, 0) && s.try_move(1, 0));
        assert_eq!(s.player, (4, 1));
        assert!(
            s.try_move(1, 0) && !s.try_move(1, 0),
            "the next water is another lock: no key left"
        );
    }

    /// A key lying on a lock cell is not picked up: the proof counts none
    /// there (the window took it, then opened a lock the proof said stays
    /// shut).
    #[test]
    fn a_key_on_a_lock_cell_is_not_picked_up() {
        let mut g = generated("#########\n#@.+..~.#\n#########\n");
        g.map.mark(2, 1, "key").unwrap();
        g.map.mark(3, 1, "small").unwrap();
        let g = with_locks(g, &[("door", "key", false), ("water", "small", true)]);
        let mut s = ViewState::new(vec![g], Duration::ZERO, 1);
        assert!(
            s.try_move(1, 0) && s.try_move(1, 0),
            "into the door with its key"
        );
        assert!(s.state_line().contains("held=key "), "{}", s.state_line());
        assert!(s.try_move(1, 0) && s.try_move(1, 0));
        assert!(!s.try_move(1, 0), "no small key was picked up in the door");
    }

    /// Starting (or landing) in a shut lock: stuck there until it can be
    /// opened, as the proof says.
    #[test]
    fn standing_in_a_shut_lock_is_stuck() {
        let mut g = generated("#####\n#@..#\n#####\n");
        g.map.set(1, 1, Tile::DOOR).unwrap();
        let g = with_locks(g, &[("door", "key", false)]);
        let mut s = ViewState::new(vec![g], Duration::ZERO, 1);
        assert!(!s.try_move(1, 0));
        assert!(
            s.status().contains("stuck: the door at (1,1) needs a key"),
            "{}",
            s.status()
        );
    }

    /// The cell of the first marker named `name`.
    fn marker(g: &Generated, name: &str) -> (i32, i32) {
        let m = g.map.markers().iter().find(|m| m.name == name);
        let m = m.unwrap_or_else(|| panic!("no {name} marker"));
        (m.x, m.y)
    }

    /// Steps the player (four-way, by `try_move`) along a shortest way to
    /// `to` over walkable and lock cells; whether every step was taken.
    fn walk_steps(s: &mut ViewState, to: (i32, i32)) -> bool {
        let map = s.map().clone();
        let open = |x: i32, y: i32| {
            map.in_bounds(x as i64, y as i64)
                && (map.is_walkable(x as i64, y as i64) || s.lock_rule(x, y).is_some())
        };
        let mut from = std::collections::HashMap::new();
        let mut todo = std::collections::VecDeque::from([s.player]);
        from.insert(s.player, s.player);
        while let Some((x, y)) = todo.pop_front() {
            for next in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                if (open(next.0, next.1) || next == to) && !from.contains_key(&next) {
                    from.insert(next, (x, y));
                    todo.push_back(next);
                }
            }
        }
        let mut way = vec![to];
        while let Some(&back) = from.get(way.last().unwrap()) {
            if back == *way.last().unwrap() {
                break;
            }
            way.push(back);
        }
        way.reverse();
        assert_eq!(way[0], s.player, "no way to {to:?} at all");
        way.windows(2)
            .all(|w| s.try_move(w[1].0 - w[0].0, w[1].1 - w[0].1))
    }

    /// The way the proof finds through the reference puzzles can be walked
    /// in the window: keys.lua's exit only once its key is picked up;
    /// crypt.lua's two consumed locks, its pit to level 2 and its exit.
    #[test]
    fn the_reference_puzzles_can_be_walked_as_the_proof_walks_them() {
        for seed in 0..8 {
            let levels = crate::Generator::file("scripts/keys.lua")
                .build()
                .unwrap()
                .generate_levels(seed)
                .unwrap();
            let (key, exit) = (marker(&levels[0], "key"), marker(&levels[0], "exit"));
            let mut s = ViewState::new(levels, Duration::ZERO, 1);
            s.walk_to(exit.0, exit.1);
            assert_ne!(s.player, exit, "seed {seed}: no click past the locked door");
            assert!(!walk_steps(&mut s, exit), "seed {seed}: nor steps");
            s.walk_to(key.0, key.1);
            assert_eq!(s.player, key, "seed {seed}: {}", s.status());
            s.walk_to(exit.0, exit.1);
            assert_eq!(s.player, exit, "seed {seed}: {}", s.status());
        }
        for seed in 0..8 {
            let levels = crate::Generator::file("scripts/crypt.lua")
                .build()
                .unwrap()
                .generate_levels(seed)
                .unwrap();
            let first_key = marker(&levels[0], "small_key");
            let pit = marker(&levels[0], "pit");
            let second_key = marker(&levels[1], "small_key");
            let exit = marker(&levels[1], "exit");
            let mut s = ViewState::new(levels, Duration::ZERO, 1);
            assert!(walk_steps(&mut s, first_key), "seed {seed}: {}", s.status());
            assert!(walk_steps(&mut s, pit), "seed {seed}: {}", s.status());
            assert_eq!(s.level(), (2, 2), "seed {seed}: down the pit");
            assert!(
                walk_steps(&mut s, second_key),
                "seed {seed}: {}",
                s.status()
            );
            assert!(walk_steps(&mut s, exit), "seed {seed}: {}", s.status());
            assert_eq!(s.player, exit);
        }
    }

    #[test]
    fn stairs_lead_between_levels_and_back() {
        let mut s = ViewState::new(
            vec![
                level("#####\n#@.>#\n#####\n", 1, 3),
                level("#####\n#.@<#\n#>..#\n#####\n", 2, 3),
                level("#####\n#<.@#\n#####\n", 3, 3),
            ],
            Duration::ZERO,
            1,
        );
        assert_eq!(s.level(), (1, 3));
        let refused = s.take_stairs(true).unwrap_err();
        assert!(refused.contains("you are on floor"), "{refused}");
        assert!(s.take_stairs(false).is_err());
        s.try_move(1, 0);
        s.try_move(1, 0);
        assert_eq!(s.player, (3, 1));
        s.take_stairs(true).unwrap();
        assert_eq!(
            (s.level(), s.player),
            ((2, 3), (2, 1)),
            "at the start the first time"
        );
        assert!(s.state_line().contains("level=2/3"), "{}", s.state_line());
        s.try_move(1, 0);
        s.take_stairs(false).unwrap();
        assert_eq!(
            (s.level(), s.player),
            ((1, 3), (3, 1)),
            "back where they went down"
        );
        s.take_stairs(true).unwrap();
        assert_eq!(
            (s.level(), s.player),
            ((2, 3), (2, 1)),
            "down to the level's start again, as the proof goes"
        );
        s.try_move(-1, 1);
        s.try_move(-1, 0);
        s.take_stairs(true).unwrap();
        assert_eq!(s.level(), (3, 3));
        s.try_move(-1, 0);
        s.try_move(-1, 0);
        s.try_move(1, 0);
        s.try_move(1, 0);
        s.try_move(1, 0);
        assert!(s
            .take_stairs(true)
            .unwrap_err()
            .contains("you are on floor"));
        assert!(s.status().contains("level 3/3"), "{}", s.status());
    }

    #[test]
    fn actions_change_the_view_and_say_what_to_do() {
        let text = "##########\n#@...#...#\n##########\n";
        let mut s = ViewState::new(one(text), Duration::ZERO, 8);
        s.view = (40, 30);
        assert_eq!(s.apply(Action::FitMap), Effect::Nothing);
        assert_eq!(s.cell, 4, "10x3 cells in 40x30 px: 4 px a cell");
        s.apply(Action::ZoomIn);
        assert_eq!(s.cell, 6);
        s.apply(Action::ZoomOut);
        s.apply(Action::ZoomOut);
        assert_eq!(s.cell, 3);
        s.view = (5, 5);
        s.apply(Action::FitMap);
        assert_eq!(s.cell, 1, "never below 1 px");

        assert!(s.dark_rock);
        s.apply(Action::ToggleRock);
        assert!(!s.dark_rock && s.state_line().contains("rock=all"));
        let overlays: Vec<&str> = (0..5)
            .map(|_| {
                s.apply(Action::CycleOverlay);
                s.overlay.name()
            })
            .collect();
        assert_eq!(
            overlays,
            ["rooms", "regions", "distance", "markers", "none"]
        );

        assert_eq!(s.apply(Action::NextSeed), Effect::Generate(8));
        assert!(s.generating && s.status().starts_with("generating..."));
        assert_eq!(s.apply(Action::PrevSeed), Effect::Generate(6));
        assert_eq!(s.apply(Action::RandomSeed), Effect::RandomSeed);
        assert_eq!(s.apply(Action::Save), Effect::Save);
        assert_eq!(s.apply(Action::Quit), Effect::Quit);
        s.replace(one(text), Duration::ZERO);
        assert!(!s.generating, "a new map ends the wait");
        assert_eq!(s.overlay, Overlay::None, "the overlay cycled back round");
        assert!(!s.dark_rock, "settings survive a new map");
    }

    #[test]
    fn the_seed_grid_picks_and_opens_a_seed() {
        let mut s = ViewState::new(one("#####\n#@..#\n#####\n"), Duration::ZERO, 8);
        s.view = (600, 400);
        assert_eq!(s.apply(Action::ToggleGrid), Effect::StartGrid);
        let len = s.grid.as_ref().unwrap().len();
        assert!(len >= 4, "{len}");
        assert!(s
            .status()
            .starts_with("seed grid from 7: seed 7 selected (0/"));
        assert_eq!(s.apply(Action::Move(1, 0)), Effect::Nothing);
        assert_eq!(s.grid.as_ref().unwrap().selected_seed(), 8);
        assert_eq!(s.apply(Action::NextSeed), Effect::Nothing, "seed keys wait");
        assert_eq!(s.apply(Action::GridSelect(2)), Effect::Nothing);
        assert_eq!(
            s.apply(Action::PlayReplay),
            Effect::Generate(9),
            "Enter opens"
        );
        assert!(s.grid.is_none() && s.generating);
        s.apply(Action::ToggleGrid);
        assert_eq!(
            s.apply(Action::GridOpen(3)),
            Effect::Generate(10),
            "a click opens"
        );
        s.apply(Action::ToggleGrid);
        assert_eq!(
            s.apply(Action::Back),
            Effect::Nothing,
            "Esc closes the grid, not the window"
        );
        assert!(s.grid.is_none());
    }

    #[test]
    fn esc_closes_what_is_open_before_it_quits() {
        let mut s = ViewState::new(one("#####\n#@..#\n#####\n"), Duration::ZERO, 8);
        s.view = (600, 400);
        s.apply(Action::CycleOverlay);
        s.apply(Action::ToggleGrid);
        s.apply(Action::ToggleHelp);
        assert!(s.help && s.grid.is_some() && s.overlay != Overlay::None);
        assert_eq!(s.apply(Action::Back), Effect::Nothing);
        assert!(!s.help && s.grid.is_some(), "the key list first");
        assert_eq!(s.apply(Action::Back), Effect::Nothing);
        assert!(
            s.grid.is_none() && s.overlay != Overlay::None,
            "then the grid"
        );
        assert_eq!(s.apply(Action::Back), Effect::Nothing);
        assert_eq!(s.overlay, Overlay::None, "then the overlay");
        assert_eq!(s.apply(Action::Back), Effect::Quit, "then it quits");
        // The key list says how to close it.
        let help = crate::view::input::help_lines().join("\n");
        assert!(help.contains("? or Esc closes it"), "{help}");
    }

    #[test]
    fn the_mouse_inspects_and_clicks_walk() {
        let text = "##########\n#@...#...#\n##########\n";
        let mut s = ViewState::new(one(text), Duration::ZERO, 8);
        s.apply(Action::Hover(Some((3, 1))));
        assert!(
            s.status()
                .starts_with("(3,1) floor | region 1/2 | 2 steps from start | seed 7"),
            "{}",
            s.status()
        );
        assert!(s.state_line().contains("hover=3,1"));
        s.apply(Action::Hover(Some((30, 1))));
        assert_eq!(s.hover, None, "off the map");
        s.apply(Action::Click(4, 1));
        assert_eq!(s.player, (4, 1), "a reachable cell: walked there");
        s.apply(Action::Click(7, 1));
        assert_eq!(s.player, (4, 1), "behind the wall: not reachable");
        assert!(s.notice.as_deref().unwrap().contains("cannot be reached"));
        s.apply(Action::Click(5, 1));
        assert_eq!(s.player, (4, 1), "a wall");
    }

    #[test]
    fn replay_shows_markers_and_start_once_placed_and_lights_changes() {
        let mut g = generated("######\n#@...#\n######\n");
        let mut map = Map::new(6, 3).unwrap();
        let mut journal = Journal::new(&mut map);
        map.carve_room(&Rect::new(0, 0, 3, 2), Tile::FLOOR).unwrap();
        journal.capture(&mut map, "room", false);
        map.mark(2, 1, "key").unwrap();
        map.set_start(1, 1).unwrap();
        map.h_tunnel(3, 4, 1, Tile::FLOOR).unwrap();
        journal.capture(&mut map, "tunnel", false);
        g.map = map;
        g.replay = Some(journal.finish());
        let mut s = ViewState::new(vec![g], Duration::ZERO, 8);
        assert_eq!(s.placed(), (1, Some((1, 1))), "at the end: everything");
        assert!(s.changed_cells().is_empty(), "nothing lit before replaying");
        s.apply(Action::FirstStep);
        assert_eq!(
            s.placed(),
            (0, None),
            "before the first step: nothing placed"
        );
        s.apply(Action::StepForward);
        assert_eq!(s.placed(), (0, None), "the room is carved, the key not yet");
        assert_eq!(
            s.changed_cells(),
            vec![6 + 1, 6 + 2],
            "the room's interior is lit"
        );
        s.apply(Action::StepForward);
        assert_eq!(s.placed(), (1, Some((1, 1))));
        assert_eq!(s.changed_cells(), vec![6 + 3, 6 + 4], "the tunnel is lit");
        s.replace(vec![generated("####\n#@.#\n####\n")], Duration::ZERO);
        assert!(s.changed_cells().is_empty());
    }

    #[test]
    fn replay_speed_sets_steps_a_frame() {
        let mut g = generated("######\n#@...#\n######\n");
        let mut map = Map::new(6, 3).unwrap();
        let mut journal = Journal::new(&mut map);
        for x in 1..5 {
            map.set(x, 1, Tile::FLOOR).unwrap();
            journal.capture(&mut map, "dig", false);
        }
        map.set_start(1, 1).unwrap();
        g.map = map;
        g.replay = Some(journal.finish());
        let mut s = ViewState::new(vec![g], Duration::ZERO, 8);
        s.play();
        s.tick();
        assert_eq!(s.step, 1, "the first step shows at once");
        assert_eq!(s.replay_frames(), 120, "4 steps: two seconds at least");
        for _ in 0..29 {
            s.tick();
        }
        assert_eq!(s.step, 1, "then a step every 30 frames (half a second)");
        s.tick();
        assert_eq!(s.step, 2);
        for _ in 0..7 {
            s.apply(Action::ReplayFaster);
        }
        assert_eq!(s.speed, 6, "capped");
        s.play();
        s.tick();
        s.tick();
        assert_eq!(
            (s.step, s.playing),
            (4, false),
            "a frame a step at full speed"
        );
        for _ in 0..14 {
            s.apply(Action::ReplaySlower);
        }
        assert_eq!(s.speed, -6, "capped");
        s.play();
        s.tick();
        assert_eq!(s.step, 1);
        // 4 steps over 120 << 6 frames: one every 1920 frames.
        for _ in 0..1919 {
            s.tick();
        }
        assert_eq!(s.step, 1);
        s.tick();
        assert_eq!(s.step, 2);
        // Many steps: a quarter of a second each, 12 seconds at most.
        s.speed = 0;
        let per_step = |len: u64| (len * 15).clamp(120, 720) as f64 / len as f64 / 60.0;
        assert_eq!(per_step(27), 0.25, "27 steps: 6.75 s, not half a second");
        assert!(per_step(2000) < 0.01 && per_step(2000) * 2000.0 == 12.0);
    }

    /// Hovering mid-replay describes the cell as the screen shows it at
    /// that step, not as the finished map has it.
    #[test]
    fn hovering_mid_replay_describes_what_is_shown() {
        let mut g = generated("#######\n#######\n#######\n");
        let mut map = Map::new(7, 3).unwrap();
        let mut journal = Journal::new(&mut map);
        map.set(3, 1, Tile::FLOOR).unwrap();
        journal.capture(&mut map, "dig", false);
        map.set_start(3, 1).unwrap();
        g.map = map;
        g.replay = Some(journal.finish());
        let mut s = ViewState::new(vec![g], Duration::ZERO, 8);
        s.hover = Some((3, 1));
        assert!(
            s.status().starts_with("(3,1) floor | region 1/1"),
            "{}",
            s.status()
        );
        s.step_to(0);
        assert!(
            s.status().starts_with("(3,1) wall | seed"),
            "{}",
            s.status()
        );
        s.hover = Some((9, 9));
        assert!(
            s.status().starts_with("(9,9) off the map"),
            "{}",
            s.status()
        );
    }

    #[test]
    fn dark_rock_follows_the_replay() {
        let mut g = generated("#######\n#######\n#######\n#######\n#######\n");
        let mut map = Map::new(7, 5).unwrap();
        let mut journal = Journal::new(&mut map);
        map.set(3, 2, Tile::FLOOR).unwrap();
        journal.capture(&mut map, "dig", false);
        map.set_start(3, 2).unwrap();
        g.map = map;
        g.replay = Some(journal.finish());
        let mut s = ViewState::new(vec![g], Duration::ZERO, 8);
        assert!(s.dark_rock);
        assert!(!s.is_dark(2, 2), "at the end: next to the floor");
        s.step_to(0);
        assert!(
            s.is_dark(2, 2),
            "before the dig: buried, as that step's map is"
        );
        s.step_to(1);
        assert!(!s.is_dark(2, 2));
    }

    #[test]
    fn walls_block_the_player() {
        let mut s = ViewState::new(one("#####\n#@.+#\n#~###\n"), Duration::ZERO, 1);
        assert!(!s.try_move(0, -1), "wall");
        assert!(!s.try_move(0, 1), "deep water");
        assert!(!s.try_move(-1, 0));
        assert!(s.try_move(1, 0));
        assert!(s.try_move(1, 0), "doors are walkable");
        assert_eq!(s.player, (3, 1));
        assert!(!s.try_move(1, 0));
        assert!(!s.try_move(1, 1), "diagonal into rock");
        assert!(s.try_move(-1, 0));
        assert_eq!(s.status(), "(2,1) floor | seed 7 | 1px | ? keys");
    }

    #[test]
    fn diagonal_moves() {
        let mut s = ViewState::new(one("####\n#@.#\n#..#\n####\n"), Duration::ZERO, 1);
        assert!(s.try_move(1, 1));
        assert_eq!(s.player, (2, 2));
    }

    /// A diagonal step needs both cells beside it walkable: no squeezing
    /// between two walls, nor round a locked door's edge where corridors
    /// cross (the proof walks four ways, and said the lock gated the way).
    #[test]
    fn diagonal_steps_never_cut_a_corner() {
        let mut s = ViewState::new(one("####\n#@##\n##.#\n####\n"), Duration::ZERO, 1);
        assert!(!s.try_move(1, 1), "between two walls");
        assert_eq!(s.player, (1, 1));
        let mut s = ViewState::new(one("#####\n#@..#\n##.##\n#####\n"), Duration::ZERO, 1);
        assert!(!s.try_move(1, 1), "round one wall's corner");
        assert!(s.try_move(1, 0) && s.try_move(0, 1), "two orthogonal steps");
    }

    #[test]
    fn fov_lights_seen_cells_and_remembers_them() {
        let mut s = ViewState::new(
            one("#########\n#@..#...#\n###.#...#\n#########\n"),
            Duration::ZERO,
            1,
        );
        assert_eq!(s.sight(6, 1), Sight::Seen, "field of view off: all lit");
        s.toggle_fov();
        assert_eq!(s.sight(2, 1), Sight::Seen);
        assert_eq!(s.sight(6, 1), Sight::Unknown);
        s.try_move(1, 0);
        s.try_move(1, 0);
        s.try_move(0, 1);
        assert_eq!(s.sight(1, 1), Sight::Seen);
        assert!(s.status().contains("fov"));
    }

    #[test]
    fn replay_steps_back_and_forth() {
        let mut g = generated("######\n#@...#\n######\n");
        let mut map = Map::new(6, 3).unwrap();
        let mut journal = Journal::new(&mut map);
        map.carve_room(&Rect::new(0, 0, 2, 2), Tile::FLOOR).unwrap();
        journal.capture(&mut map, "room", false);
        map.h_tunnel(1, 4, 1, Tile::FLOOR).unwrap();
        journal.capture(&mut map, "tunnel", false);
        map.set_start(1, 1).unwrap();
        g.map = map;
        g.replay = Some(journal.finish());
        let mut s = ViewState::new(vec![g], Duration::ZERO, 1);
        assert_eq!((s.step, s.replay_len()), (2, 2));
        assert_eq!(s.step_label(), Some("tunnel"));
        s.step_by(-1);
        assert_eq!(s.step_label(), Some("room"));
        assert_eq!(s.shown(2, 1), Tile::WALL);
        assert!(s.status().contains("step 1/2 room"));
        s.step_to(0);
        assert_eq!(s.shown(1, 1), Tile::WALL);
        assert_eq!(s.step_label(), None);
        s.step_by(5);
        assert_eq!(s.step, 2);
        assert_eq!(s.shown(4, 1), Tile::FLOOR);
        s.play();
        assert_eq!((s.step, s.playing), (0, true));
        s.tick();
        assert_eq!((s.step, s.playing), (1, true));
        for _ in 0..60 {
            s.tick();
        }
        assert_eq!((s.step, s.playing), (2, false));
        s.tick();
        assert_eq!(s.step, 2, "stopped at the end");
    }

    #[test]
    fn replacing_the_map_resets_the_player_and_keeps_settings() {
        let mut s = ViewState::new(one("#####\n#@..#\n#####\n"), Duration::ZERO, 3);
        s.toggle_fov();
        s.try_move(1, 0);
        s.error = Some("x.lua:1: boom".into());
        s.replace(one("#####\n#..@#\n#####\n"), Duration::from_millis(2));
        assert_eq!(s.player, (3, 1));
        assert!(s.fov);
        assert_eq!(s.cell, 3);
        assert_eq!(s.error, None);
        assert!(s
            .state_line()
            .starts_with("seed=7 level=1/1 player=3,1 hash="));
    }
}
