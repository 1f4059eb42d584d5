//! The puzzle a script declares in its table (`goal`, `locks`, `one_way`):
//! what finishing a level means and what gates it, as plain data that the
//! proof reads. Reading it from Lua is the script module's job.

/// What a script says finishing means and what stands in the way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Puzzle {
    /// Marker names; reaching any cell marked with one of them (on the
    /// last level of a dungeon) finishes it. Never empty.
    pub goals: Vec<String>,
    /// Whether `secret_door` cells are passable (`goal.secrets`, true by
    /// default: the player is assumed to find them).
    pub secrets: bool,
    /// Tile kind -> what opens it, sorted by kind name.
    pub locks: Vec<LockRule>,
    /// Tile kinds that drop the player one level down, sorted by name.
    pub one_way: Vec<String>,
}

/// `locks.<kind> = { key = "<marker>", consumed = <bool> }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockRule {
    /// The tile kind that is shut until opened.
    pub kind: String,
    /// The marker name of the key that opens it.
    pub key: String,
    /// Whether opening one lock spends one key (which then stays open);
    /// otherwise a held key opens every lock of the kind.
    pub consumed: bool,
}

impl Puzzle {
    /// The goal names as a sentence reads them: `exit`, `exit or portal`.
    pub fn goal_words(&self) -> String {
        match self.goals.as_slice() {
            [] => "goal".into(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// Checks what a declaration cannot say: one key name for both kept
    /// and consumed locks (a kept key would be spent, or a spent key kept).
    pub fn check(&self) -> Result<(), String> {
        for a in &self.locks {
            if let Some(b) = self
                .locks
                .iter()
                .find(|b| b.key == a.key && b.consumed != a.consumed)
            {
                return Err(format!(
                    "locks: the key '{}' opens {} (kept) and {} (consumed); a key name is either kept or consumed",
                    a.key,
                    if a.consumed { &b.kind } else { &a.kind },
                    if a.consumed { &a.kind } else { &b.kind },
                ));
            }
            if self.one_way.contains(&a.kind) {
                return Err(format!(
                    "'{}' is both in locks and in one_way; a tile kind is one or the other",
                    a.kind
                ));
            }
        }
        Ok(())
    }
}
