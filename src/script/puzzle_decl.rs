//! Reads the puzzle a script declares (`goal`, `locks`, `one_way` in its
//! table) into a [`Puzzle`], refusing wrong types and unknown fields with
//! a message naming the field. What the fields mean is [`crate::proof`]'s.

use mlua::{Table, Value};

use super::args;
use crate::proof::{LockRule, Puzzle};

/// The most entries a declaration table may hold (a map has at most 256
/// tile kinds, so more locks or drops than that cannot all be kinds).
const MAX_ENTRIES: usize = 256;

/// The puzzle from the script table's `goal`, `locks` and `one_way`;
/// `None` when it declares none of them.
pub(crate) fn read(goal: Value, locks: Value, one_way: Value) -> Result<Option<Puzzle>, String> {
    if goal.is_nil() && locks.is_nil() && one_way.is_nil() {
        return Ok(None);
    }
    let Value::Table(goal) = goal else {
        if goal.is_nil() {
            return Err(
                "locks and one_way need a goal: add goal = { goals = {\"exit\"} } (the marker names that finish the dungeon)"
                    .into(),
            );
        }
        return Err(format!(
            "goal must be a table like {{ goals = {{\"exit\"}} }}, got {}",
            args::show(&goal)
        ));
    };
    let mut puzzle = Puzzle {
        secrets: true,
        ..Puzzle::default()
    };
    for (key, value) in entries(&goal, "goal")? {
        match key.as_str() {
            "goals" => puzzle.goals = names(&value, "goal.goals")?,
            "secrets" => match value {
                Value::Boolean(b) => puzzle.secrets = b,
                other => {
                    return Err(format!(
                        "goal.secrets must be true (secret doors are found and passable) or false (they are walls), got {}",
                        args::show(&other)
                    ))
                }
            },
            other => {
                return Err(format!(
                    "goal has no field '{other}' (it takes goals and secrets)"
                ))
            }
        }
    }
    if puzzle.goals.is_empty() {
        return Err(
            "goal.goals must list the marker names that finish the dungeon, like goals = {\"exit\"}"
                .into(),
        );
    }
    match locks {
        Value::Nil => {}
        Value::Table(t) => {
            for (kind, rule) in entries(&t, "locks")? {
                puzzle.locks.push(lock_rule(&kind, rule)?);
            }
        }
        other => {
            return Err(format!(
                "locks must be a table of tile kind = {{ key = \"marker\" }}, got {}",
                args::show(&other)
            ))
        }
    }
    match one_way {
        Value::Nil => {}
        Value::Table(t) => {
            for (kind, direction) in entries(&t, "one_way")? {
                match &direction {
                    Value::String(s) if s.as_bytes().as_ref() == b"down" => puzzle.one_way.push(kind),
                    other => {
                        return Err(format!(
                            "one_way.{kind} must be \"down\" (stepping on it drops the player to the level below), got {}",
                            args::show(other)
                        ))
                    }
                }
            }
        }
        other => {
            return Err(format!(
                "one_way must be a table of tile kind = \"down\", got {}",
                args::show(&other)
            ))
        }
    }
    // Sorted by name: a table's order is no order.
    puzzle.locks.sort_by(|a, b| a.kind.cmp(&b.kind));
    puzzle.one_way.sort();
    puzzle.check()?;
    Ok(Some(puzzle))
}

/// `locks.<kind>`'s rule.
fn lock_rule(kind: &str, rule: Value) -> Result<LockRule, String> {
    let Value::Table(t) = rule else {
        return Err(format!(
            "locks.{kind} must be a table like {{ key = \"key\" }} or {{ key = \"small_key\", consumed = true }}, got {}",
            args::show(&rule)
        ));
    };
    let mut key = None;
    let mut consumed = false;
    for (field, value) in entries(&t, &format!("locks.{kind}"))? {
        match field.as_str() {
            "key" => match &value {
                Value::String(s) => {
                    let what = format!("locks.{kind}.key");
                    let name = args::bounded_text(s, args::MAX_NAME, &what)?;
                    if name.is_empty() {
                        return Err(format!("{what} must be a marker name, got \"\""));
                    }
                    key = Some(name);
                }
                other => {
                    return Err(format!(
                        "locks.{kind}.key must be the key's marker name, got {}",
                        args::show(other)
                    ))
                }
            },
            "consumed" => match value {
                Value::Boolean(b) => consumed = b,
                other => {
                    return Err(format!(
                        "locks.{kind}.consumed must be true or false, got {}",
                        args::show(&other)
                    ))
                }
            },
            other => {
                return Err(format!(
                    "locks.{kind} has no field '{other}' (it takes key and consumed)"
                ))
            }
        }
    }
    let key = key.ok_or_else(|| {
        format!("locks.{kind} needs key = \"<marker name>\": the marker that opens it")
    })?;
    Ok(LockRule {
        kind: kind.to_string(),
        key,
        consumed,
    })
}

/// A table's entries with string keys, in no particular order, at most
/// [`MAX_ENTRIES`].
fn entries(table: &Table, what: &str) -> Result<Vec<(String, Value)>, String> {
    let mut out = Vec::new();
    for pair in table.pairs::<Value, Value>() {
        let (key, value) = pair.map_err(|e| format!("{what}: {e}"))?;
        if out.len() == MAX_ENTRIES {
            return Err(format!("{what} has more than {MAX_ENTRIES} entries"));
        }
        let Value::String(key) = key else {
            return Err(format!(
                "{what}'s keys must be names, got {}",
                args::show(&key)
            ));
        };
        out.push((
            args::bounded_text(&key, args::MAX_NAME, &format!("{what} key"))?,
            value,
        ));
    }
    Ok(out)
}

/// A non-empty list of marker names.
fn names(value: &Value, what: &str) -> Result<Vec<String>, String> {
    let Value::Table(t) = value else {
        return Err(format!(
            "{what} must be a list of marker names like {{\"exit\"}}, got {}",
            args::show(value)
        ));
    };
    let mut out = Vec::new();
    let len = t.raw_len();
    if len > MAX_ENTRIES {
        return Err(format!("{what} lists more than {MAX_ENTRIES} names"));
    }
    for i in 1..=len {
        let item: Value = t.raw_get(i).map_err(|e| format!("{what}: {e}"))?;
        match &item {
            Value::String(s) => {
                let name = args::bounded_text(s, args::MAX_NAME, &format!("{what}[{i}]"))?;
                if name.is_empty() {
                    return Err(format!("{what}[{i}] must be a marker name, got \"\""));
                }
                out.push(name);
            }
            other => {
                return Err(format!(
                    "{what}[{i}] must be a marker name, got {}",
                    args::show(other)
                ))
            }
        }
    }
    // Only the list part: other keys are a mistake worth naming.
    if t.pairs::<Value, Value>().take(MAX_ENTRIES + 1).count() != len {
        return Err(format!(
            "{what} must be a plain list of marker names like {{\"exit\"}}"
        ));
    }
    Ok(out)
}
