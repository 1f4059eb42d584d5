//! "Did you mean": when a script calls or indexes a name that is not there
//! (`map:connect_region(rng)`, `Rect.nwe(...)`, `Rects.new(...)`), Lua
//! says only "attempt to call a nil value (method 'connect_region')". A
//! mistyped API name is the commonest first-run mistake, and the host knows
//! every name ([`super::api_doc::API`]), so the message gets the closest
//! one. Only the message changes: looking a name up still gives `nil`, so
//! a script that tests for a function (`if map.chokepoints then`) works as
//! in plain Lua.

use super::api_doc::{Kind, Owner, API};

/// `message` with ", did you mean NAME?" after Lua's "(method 'x')",
/// "(field 'x')" or "(global 'x')" when one API name is close to `x`;
/// otherwise `message` unchanged.
pub(crate) fn with_suggestion(message: String) -> String {
    let Some((what, name, end)) = missing_name(&message) else {
        return message;
    };
    match closest(what, name) {
        Some(found) => format!(
            "{}; did you mean {found}?{}",
            &message[..end],
            &message[end..]
        ),
        None => message,
    }
}

/// Which kind of name Lua said was nil, the name, and where its closing
/// parenthesis ends in `message`.
fn missing_name(message: &str) -> Option<(&'static str, &str, usize)> {
    for what in ["method", "field", "global"] {
        for start in [
            "attempt to call a nil value (",
            "attempt to index a nil value (",
        ] {
            let head = format!("{start}{what} '");
            let Some(at) = message.find(&head) else {
                continue;
            };
            let rest = &message[at + head.len()..];
            let close = rest.find("')")?;
            return Some((what, &rest[..close], at + head.len() + close + 2));
        }
    }
    None
}

/// The API name of the kind Lua named (`what`) closest to `name`, when
/// exactly one is (see [`crate::closest::closest`]).
fn closest(what: &str, name: &str) -> Option<&'static str> {
    // A method is called with `:`; `field` is what Lua says of `Rect.nwe`
    // (a function of a global table) and of `map.widht`; a global is one
    // of the global functions or tables.
    let candidates = API.iter().filter_map(|e| match (what, e.owner) {
        ("method", _) => (e.kind == Kind::Method).then_some(e.name),
        ("field", Owner::Global("_G")) => None,
        ("field", _) => Some(e.name),
        (_, Owner::Global("_G")) => Some(e.name),
        (_, Owner::Global(table)) => Some(table),
        _ => None,
    });
    crate::closest::closest(name, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_method_gets_the_closest_name() {
        let said = "x.lua:12: attempt to call a nil value (method 'connect_region')".to_string();
        assert_eq!(
            with_suggestion(said),
            "x.lua:12: attempt to call a nil value (method 'connect_region'); did you mean connect_regions?"
        );
        let said = "x.lua:3: attempt to call a nil value (method 'carve_rom')".to_string();
        assert!(with_suggestion(said).ends_with("did you mean carve_room?"));
        // Two neighbours swapped.
        let said = "x.lua:3: attempt to call a nil value (method 'fitl')".to_string();
        assert!(with_suggestion(said).ends_with("did you mean fill?"));
    }

    #[test]
    fn fields_and_globals_too() {
        let said = "x.lua:1: attempt to call a nil value (field 'nwe')".to_string();
        assert!(with_suggestion(said).ends_with("did you mean new?"));
        let said = "x.lua:1: attempt to index a nil value (global 'Rects')".to_string();
        assert!(with_suggestion(said).ends_with("did you mean Rect?"));
    }

    #[test]
    fn nothing_close_or_no_such_message_is_left_alone() {
        for said in [
            "x.lua:1: attempt to call a nil value (method 'zzzzzzzz')",
            "x.lua:1: attempt to call a nil value (local 'f')",
            "x.lua:1: attempt to call a nil value (upvalue 'fil')",
            "x.lua:1: attempt to perform arithmetic on a nil value (field 'x')",
            "x.lua:1: boom",
            // A name the API has (on some object) is no typo.
            "x.lua:1: attempt to call a nil value (method 'fill')",
            "x.lua:1: attempt to call a nil value (method '')",
        ] {
            assert_eq!(with_suggestion(said.to_string()), said);
        }
    }
}
