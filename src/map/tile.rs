//! Tile kinds: a tile is a small integer into a [`TileSet`]; names, glyphs,
//! colours and walkability live once in the set, never in the cells.

use std::fmt;

/// One cell's kind: an index into the map's [`TileSet`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(pub u8);

impl Tile {
    pub const WALL: Tile = Tile(0);
    pub const FLOOR: Tile = Tile(1);
    pub const DOOR: Tile = Tile(2);
    pub const STAIRS_DOWN: Tile = Tile(3);
    pub const STAIRS_UP: Tile = Tile(4);
    pub const WATER: Tile = Tile(5);

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A tile prints as its id, the number the JSON export's `cells` and
/// `Generated::tile_ids` hold.
impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A tile equals its id.
impl PartialEq<u8> for Tile {
    fn eq(&self, id: &u8) -> bool {
        self.0 == *id
    }
}

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Parses `#rrggbb`.
    pub fn parse_hex(text: &str) -> Option<Rgb> {
        let hex = text.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb(byte(0)?, byte(2)?, byte(4)?))
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Everything the sinks need to know about one kind of tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileKind {
    pub name: String,
    pub glyph: char,
    pub color: Rgb,
    pub background: Rgb,
    pub walkable: bool,
    pub transparent: bool,
}

/// Why a tile could not be defined or found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    #[error("unknown tile '{name}'; known tiles: {known}")]
    Unknown { name: String, known: String },
    #[error("tile '{0}' is built in and cannot be redefined")]
    Builtin(String),
    #[error("tile '{0}' is already defined differently")]
    Redefined(String),
    #[error("glyph '{0}' is reserved for the start position")]
    GlyphReserved(char),
    #[error("glyph {0:?} is not a single printable character")]
    GlyphInvalid(String),
    #[error("glyph '{0}' (U+{code:04X}) has no bitmap in dunlua's font (ASCII, Latin-1, Greek, box drawing, blocks and all of code page 437, such as ♣ ♠ ♥ ☼ ▲ ≈ ░); choose one of those", code = *.0 as u32)]
    GlyphUndrawable(char),
    #[error("tile name {0:?} must be a non-empty identifier (letters, digits, _)")]
    NameInvalid(String),
    #[error("too many tile kinds: at most {0}")]
    Full(usize),
    #[error("marker '{0}' is already defined differently")]
    MarkerRedefined(String),
    #[error("too many marker looks: at most {0}")]
    MarkersFull(usize),
}

/// How the window, PNGs, sheets and text draw the markers of one name
/// (`markers.define`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerLook {
    pub name: String,
    pub glyph: char,
    pub color: Rgb,
}

/// The glyph the text export draws for the start position.
pub const START_GLYPH: char = '@';

/// The tile kinds a map knows: the built-ins first, in [`Tile`]'s constant
/// order, then the ones a script defined, in definition order; and the
/// looks a script gave its markers' names (presentation only, no part of
/// the map's hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    kinds: Vec<TileKind>,
    marker_looks: Vec<MarkerLook>,
}

impl Default for TileSet {
    fn default() -> Self {
        TileSet::builtin()
    }
}

fn kind(name: &str, glyph: char, color: Rgb, walkable: bool, transparent: bool) -> TileKind {
    TileKind {
        name: name.to_string(),
        glyph,
        color,
        // Rock gets a dim background so rooms read as holes in it.
        background: if walkable || transparent {
            Rgb(0, 0, 0)
        } else {
            Rgb(0x2a, 0x2a, 0x33)
        },
        walkable,
        transparent,
    }
}

/// The name of the kind [`TileSet::secret_door`] defines.
pub const SECRET_DOOR: &str = "secret_door";

/// Built-in kinds every script can name from the start that join a map's
/// set only when first written (so maps that never use them keep their
/// kinds, ids and hashes): see [`TileSet::lookup`], [`TileSet::resolve_mut`].
pub const LATENT: [&str; 1] = [SECRET_DOOR];

/// The `secret_door` kind: walkable, opaque, drawn `≡` in a dull bronze.
fn latent_secret_door() -> &'static TileKind {
    static KIND: std::sync::OnceLock<TileKind> = std::sync::OnceLock::new();
    KIND.get_or_init(|| kind(SECRET_DOOR, '≡', Rgb(0x90, 0x70, 0x40), true, false))
}

impl TileSet {
    /// The six kinds every script can use without defining them. Water is
    /// deep water: seen across but not walked through, as in libtcod and
    /// bracket-lib's tutorials; define a walkable kind for shallows.
    pub fn builtin() -> TileSet {
        TileSet {
            marker_looks: Vec::new(),
            kinds: vec![
                kind("wall", '#', Rgb(0x88, 0x88, 0x88), false, false),
                kind("floor", '.', Rgb(0x55, 0x55, 0x55), true, true),
                kind("door", '+', Rgb(0xc0, 0x80, 0x40), true, false),
                kind("stairs_down", '>', Rgb(0xff, 0xff, 0x66), true, true),
                kind("stairs_up", '<', Rgb(0xff, 0xff, 0x66), true, true),
                kind("water", '~', Rgb(0x33, 0x66, 0xff), false, true),
            ],
        }
    }

    pub const BUILTIN_COUNT: usize = 6;
    pub const CAPACITY: usize = 256;

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// The kind of `tile`; [`TileSet::lookup`]'s tile for a latent kind not
    /// yet defined (one past the last) is that kind.
    pub fn kind(&self, tile: Tile) -> &TileKind {
        match self.kinds.get(tile.index()) {
            Some(kind) => kind,
            None if tile.index() == self.kinds.len() => latent_secret_door(),
            None => panic!("tile {} of a set of {}", tile.index(), self.kinds.len()),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (Tile, &TileKind)> {
        self.kinds
            .iter()
            .enumerate()
            .map(|(i, k)| (Tile(i as u8), k))
    }

    pub fn by_name(&self, name: &str) -> Option<Tile> {
        self.kinds
            .iter()
            .position(|k| k.name == name)
            .map(|i| Tile(i as u8))
    }

    /// Like [`TileSet::by_name`], with an error that lists the known names
    /// (a latent kind too: see [`TileSet::lookup`]).
    pub fn resolve(&self, name: &str) -> Result<Tile, TileError> {
        self.by_name(name).ok_or_else(|| TileError::Unknown {
            name: name.to_string(),
            known: self.known_names().join(", "),
        })
    }

    /// A kind to read with: like [`TileSet::resolve`], but a latent kind
    /// ([`LATENT`], built in but added to a set only when first written)
    /// not yet in the set is the tile it would get, one past the last,
    /// which no cell holds, so a query finds none of it and the set (and
    /// the map's hash) stays as it is.
    pub fn lookup(&self, name: &str) -> Result<Tile, TileError> {
        match self.by_name(name) {
            Some(t) => Ok(t),
            None if LATENT.contains(&name) => {
                if self.kinds.len() >= Self::CAPACITY {
                    return Err(TileError::Full(Self::CAPACITY));
                }
                Ok(Tile(self.kinds.len() as u8))
            }
            None => self.resolve(name),
        }
    }

    /// A kind to write with: like [`TileSet::resolve`], but a latent kind
    /// is added to the set the first time it is named here.
    pub fn resolve_mut(&mut self, name: &str) -> Result<Tile, TileError> {
        match self.by_name(name) {
            Some(t) => Ok(t),
            None if name == SECRET_DOOR => self.secret_door(),
            None => self.resolve(name),
        }
    }

    /// The names a tile argument accepts: the set's, then every latent
    /// kind not in it yet.
    pub fn known_names(&self) -> Vec<&str> {
        let mut names = self.names();
        for latent in LATENT {
            if !names.contains(&latent) {
                names.push(latent);
            }
        }
        names
    }

    /// The first kind drawn with `glyph` (kinds may share one; the text
    /// form cannot tell them apart, the JSON id form and the exports can).
    pub fn by_glyph(&self, glyph: char) -> Option<Tile> {
        self.kinds
            .iter()
            .position(|k| k.glyph == glyph)
            .map(|i| Tile(i as u8))
    }

    pub fn names(&self) -> Vec<&str> {
        self.kinds.iter().map(|k| k.name.as_str()).collect()
    }

    /// The `secret_door` kind: walkable, opaque, drawn `≡` in a dull
    /// bronze, defined the first time it is asked for (so maps without
    /// secret doors keep their kinds and hashes).
    pub fn secret_door(&mut self) -> Result<Tile, TileError> {
        if let Some(t) = self.by_name(SECRET_DOOR) {
            return Ok(t);
        }
        self.define(latent_secret_door().clone())
    }

    /// The most marker names a script may give a look.
    pub const MARKER_CAPACITY: usize = 256;

    /// Gives the markers named `look.name` their glyph and colour. The
    /// glyph follows a kind's rules (drawable, not the start's `@`);
    /// defining a name twice alike is allowed, differently an error.
    pub fn define_marker(&mut self, look: MarkerLook) -> Result<(), TileError> {
        if look.glyph == START_GLYPH {
            return Err(TileError::GlyphReserved(look.glyph));
        }
        if look.glyph.is_control() || look.glyph.is_whitespace() {
            return Err(TileError::GlyphInvalid(look.glyph.to_string()));
        }
        if !crate::glyphs::drawable(look.glyph) {
            return Err(TileError::GlyphUndrawable(look.glyph));
        }
        match self.marker_look(&look.name) {
            Some(same) if *same == look => Ok(()),
            Some(_) => Err(TileError::MarkerRedefined(look.name)),
            None if self.marker_looks.len() >= Self::MARKER_CAPACITY => {
                Err(TileError::MarkersFull(Self::MARKER_CAPACITY))
            }
            None => {
                self.marker_looks.push(look);
                Ok(())
            }
        }
    }

    /// The look a script gave the markers named `name`, if it did.
    pub fn marker_look(&self, name: &str) -> Option<&MarkerLook> {
        self.marker_looks.iter().find(|l| l.name == name)
    }

    /// Every marker look, in definition order.
    pub fn marker_looks(&self) -> &[MarkerLook] {
        &self.marker_looks
    }

    /// Adds a script's own kind. Defining the same kind twice with the same
    /// description is allowed (a shared module may be required by several
    /// scripts); anything else that clashes is an error.
    pub fn define(&mut self, new: TileKind) -> Result<Tile, TileError> {
        let name_ok = !new.name.is_empty()
            && new
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !name_ok {
            return Err(TileError::NameInvalid(new.name));
        }
        // A latent built-in is defined as itself or not at all.
        if LATENT.contains(&new.name.as_str()) && new != *latent_secret_door() {
            return Err(TileError::Builtin(new.name));
        }
        if let Some(existing) = self.by_name(&new.name) {
            if existing.index() < Self::BUILTIN_COUNT {
                return Err(TileError::Builtin(new.name));
            }
            if *self.kind(existing) == new {
                return Ok(existing);
            }
            return Err(TileError::Redefined(new.name));
        }
        if new.glyph == START_GLYPH {
            return Err(TileError::GlyphReserved(new.glyph));
        }
        if new.glyph.is_control() || new.glyph.is_whitespace() {
            return Err(TileError::GlyphInvalid(new.glyph.to_string()));
        }
        // Every tile is drawn (window, PNG, tileset): never as a hollow box.
        if !crate::glyphs::drawable(new.glyph) {
            return Err(TileError::GlyphUndrawable(new.glyph));
        }
        if self.kinds.len() >= Self::CAPACITY {
            return Err(TileError::Full(Self::CAPACITY));
        }
        self.kinds.push(new);
        Ok(Tile((self.kinds.len() - 1) as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lava() -> TileKind {
        kind("lava", '%', Rgb(255, 64, 0), false, true)
    }

    #[test]
    fn builtins_match_the_constants() {
        let set = TileSet::builtin();
        assert_eq!(set.by_name("wall"), Some(Tile::WALL));
        assert_eq!(set.by_name("floor"), Some(Tile::FLOOR));
        assert_eq!(set.by_name("door"), Some(Tile::DOOR));
        assert_eq!(set.by_name("stairs_down"), Some(Tile::STAIRS_DOWN));
        assert_eq!(set.by_name("stairs_up"), Some(Tile::STAIRS_UP));
        assert_eq!(set.by_name("water"), Some(Tile::WATER));
        assert_eq!(set.len(), TileSet::BUILTIN_COUNT);
    }

    #[test]
    fn secret_door_is_known_before_it_is_in_the_set() {
        let mut set = TileSet::builtin();
        set.define(lava()).unwrap();
        // Read: the tile it would get, which no cell holds; the set stays.
        assert_eq!(set.lookup(SECRET_DOOR), Ok(Tile(7)));
        assert_eq!(set.kind(Tile(7)).name, SECRET_DOOR);
        assert_eq!(set.len(), 7);
        assert!(set
            .resolve("nope")
            .unwrap_err()
            .to_string()
            .ends_with("water, lava, secret_door"));
        assert_eq!(set.known_names().last(), Some(&SECRET_DOOR));
        // Written: it joins the set, once.
        assert_eq!(set.resolve_mut(SECRET_DOOR), Ok(Tile(7)));
        assert_eq!(set.resolve_mut(SECRET_DOOR), Ok(Tile(7)));
        assert_eq!(set.len(), 8);
        assert_eq!(set.known_names().len(), 8);
        // Only as itself.
        let mut other = TileSet::builtin();
        let mut look = latent_secret_door().clone();
        look.glyph = 'S';
        assert_eq!(
            other.define(look),
            Err(TileError::Builtin(SECRET_DOOR.into()))
        );
        assert_eq!(other.define(latent_secret_door().clone()), Ok(Tile(6)));
    }

    #[test]
    fn define_appends_and_is_idempotent() {
        let mut set = TileSet::builtin();
        let t = set.define(lava()).unwrap();
        assert_eq!(t, Tile(6));
        assert_eq!(set.define(lava()).unwrap(), t);
        assert_eq!(set.by_glyph('%'), Some(t));
    }

    #[test]
    fn define_rejects_clashes() {
        let mut set = TileSet::builtin();
        set.define(lava()).unwrap();
        let mut other = lava();
        other.walkable = true;
        assert_eq!(set.define(other), Err(TileError::Redefined("lava".into())));
        let floor = kind("floor", '.', Rgb(1, 1, 1), true, true);
        assert_eq!(set.define(floor), Err(TileError::Builtin("floor".into())));
        // Kinds may share a glyph (lava and water both `~`, as roguelikes
        // draw them); the text form then shows the first kind's.
        let moss = kind("moss", '#', Rgb(1, 1, 1), true, true);
        assert_eq!(set.define(moss), Ok(Tile(7)));
        assert_eq!(set.by_glyph('#'), Some(Tile::WALL));
        let at = kind("hero", '@', Rgb(1, 1, 1), true, true);
        assert_eq!(set.define(at), Err(TileError::GlyphReserved('@')));
        let euro = kind("coin", '€', Rgb(1, 1, 1), true, true);
        assert_eq!(
            set.define(euro.clone()),
            Err(TileError::GlyphUndrawable('€'))
        );
        assert!(TileError::GlyphUndrawable('€')
            .to_string()
            .starts_with("glyph '€' (U+20AC) has no bitmap"));
        let club = kind("tree", '♣', Rgb(1, 1, 1), false, false);
        assert!(set.define(club).is_ok());
        let bad = kind("no spaces", 'x', Rgb(1, 1, 1), true, true);
        assert!(matches!(set.define(bad), Err(TileError::NameInvalid(_))));
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let err = TileSet::builtin().resolve("flor").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown tile 'flor'; known tiles: wall, floor, door, stairs_down, stairs_up, water, secret_door"
        );
    }

    #[test]
    fn colours_parse_and_print() {
        assert_eq!(Rgb::parse_hex("#ff8000"), Some(Rgb(255, 128, 0)));
        assert_eq!(Rgb::parse_hex("ff8000"), None);
        assert_eq!(Rgb::parse_hex("#ff80"), None);
        assert_eq!(Rgb(255, 128, 0).to_string(), "#ff8000");
    }
}
