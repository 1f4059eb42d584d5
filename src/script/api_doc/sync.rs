//! Checks the API table against what the host really registers: every
//! userdata field and method and every global function must be annotated,
//! and every annotation must exist. Test-only.

use mlua::{Lua, UserData, UserDataMethods};

use crate::script::registered_names::NameRecorder;

use super::render::{luals, reference};
use super::table::{e, Entry, Kind, Owner, API};
use Kind::Method;

/// The names a userdata type registers, as `owner`'s Lua names.
pub(crate) fn registered<T: UserData>(owner: Owner) -> Vec<(Owner, Kind, String)> {
    let mut r = NameRecorder::default();
    T::add_fields(&mut r);
    T::add_methods(&mut r);
    let mut out: Vec<(Owner, Kind, String)> = r
        .fields
        .into_iter()
        .map(|n| (owner, Kind::Field, n))
        .collect();
    out.extend(r.methods.into_iter().map(|n| (owner, Kind::Method, n)));
    out
}

/// What is registered but not documented, and documented but not
/// registered, as messages; empty when the two agree.
pub(crate) fn out_of_sync(
    registered: &[(Owner, Kind, String)],
    documented: &[Entry],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (owner, kind, name) in registered {
        if !documented
            .iter()
            .any(|e| e.owner == *owner && e.kind == *kind && e.name == name)
        {
            problems.push(format!(
                "{}.{name} is registered but not annotated in api_doc/table.rs",
                owner.class()
            ));
        }
    }
    for e in documented {
        if !registered
            .iter()
            .any(|(o, k, n)| *o == e.owner && *k == e.kind && n == e.name)
        {
            problems.push(format!("{} is annotated but not registered", e.lua_name()));
        }
    }
    problems
}

/// Every name the host registers: userdata fields and methods, and the
/// functions it adds to the globals (read from a real VM).
pub(crate) fn host_api() -> mlua::Result<Vec<(Owner, Kind, String)>> {
    use crate::script::api_map::LuaMap;
    use crate::script::api_rng::LuaRng;
    use crate::script::api_selection::{LuaDistance, LuaNoise, LuaSelection};
    let mut out = registered::<LuaMap>(Owner::Map);
    let rect = crate::script::api_rect::FIELDS
        .iter()
        .map(|n| (Owner::Rect, Kind::Field, n.to_string()));
    out.extend(rect);
    let rect = crate::script::api_rect::METHODS.into_iter();
    out.extend(rect.map(|n| (Owner::Rect, Kind::Method, n.to_string())));
    let index = crate::script::api_rect::INDEX_METHODS.into_iter();
    out.extend(index.map(|n| (Owner::RectIndex, Kind::Method, n.to_string())));
    out.extend(registered::<LuaSelection>(Owner::Selection));
    out.extend(registered::<LuaDistance>(Owner::DistanceMap));
    out.extend(registered::<LuaNoise>(Owner::NoiseField));
    out.extend(registered::<LuaRng>(Owner::Rng));
    out.extend(registered::<crate::script::api_level::LevelView>(
        Owner::LevelView,
    ));
    out.extend(registered::<crate::script::api_graph::LuaGraph>(
        Owner::Graph,
    ));
    let vm = crate::script::host::Vm::new(
        std::path::Path::new("x.lua"),
        &Default::default(),
        crate::script::Limits::default(),
        true,
    )?;
    // The same standard names a script has (string, table and utf8 come as
    // dunlua's charged copies).
    let standard = crate::script::host::safe_libs()
        | mlua::StdLib::STRING
        | mlua::StdLib::TABLE
        | mlua::StdLib::UTF8;
    let plain = Lua::new_with(standard, mlua::LuaOptions::default())?;
    let mut names: Vec<(String, mlua::Value)> = vm
        .lua
        .globals()
        .pairs::<String, mlua::Value>()
        .collect::<mlua::Result<_>>()?;
    names.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, value) in names {
        if plain.globals().contains_key(name.as_str())? {
            continue;
        }
        match (name.as_str(), value) {
            ("Rect", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("Rect"), Kind::Function, key?.0));
                }
            }
            ("tiles", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("tiles"), Kind::Function, key?.0));
                }
            }
            ("prefab", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("prefab"), Kind::Function, key?.0));
                }
            }
            ("graph", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("graph"), Kind::Function, key?.0));
                }
            }
            ("wfc", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("wfc"), Kind::Function, key?.0));
                }
            }
            ("markers", mlua::Value::Table(t)) => {
                for key in t.pairs::<String, mlua::Value>() {
                    out.push((Owner::Global("markers"), Kind::Function, key?.0));
                }
            }
            (other, _) => out.push((Owner::Global("_G"), Kind::Function, other.to_string())),
        }
    }
    Ok(out)
}

mod tests {
    use super::*;

    #[test]
    fn every_registered_name_is_annotated_and_back() {
        let host = host_api().unwrap();
        assert!(host.len() > 60, "{} names", host.len());
        let problems = out_of_sync(&host, API);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// A primitive registered without an annotation is caught.
    struct Fixture;

    impl UserData for Fixture {
        fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
            methods.add_method("documented", |_, _, ()| Ok(()));
            methods.add_method("forgotten", |_, _, ()| Ok(()));
        }
    }

    #[test]
    fn an_unannotated_primitive_fails_the_check() {
        let docs = [
            e(Owner::Rng, Method, "documented", &[], &[], "Has docs."),
            e(Owner::Rng, Method, "gone", &[], &[], "Not registered."),
        ];
        let problems = out_of_sync(&registered::<Fixture>(Owner::Rng), &docs);
        assert_eq!(
            problems,
            [
                "Rng.forgotten is registered but not annotated in api_doc/table.rs",
                "rng:gone is annotated but not registered"
            ]
        );
    }

    #[test]
    fn the_committed_annotations_are_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("types/dunlua.lua");
        if std::env::var_os("DUNLUA_BLESS").is_some() {
            std::fs::write(&path, luals()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == luals(),
            "types/dunlua.lua is stale: run `cargo run -- api --luals > types/dunlua.lua` (or DUNLUA_BLESS=1 cargo test)"
        );
    }

    #[test]
    fn the_reference_lists_everything() {
        let text = reference();
        for entry in API {
            assert!(text.contains(&entry.signature()), "{}", entry.signature());
        }
        assert!(text.contains("map:set(x: integer, y: integer, t: TileName)"));
        // The script table itself (the reference listed only its puzzle
        // fields), and each class under one heading (`Rect` had two).
        for (name, ty, _) in super::super::table::SCRIPT_FIELDS {
            assert!(text.contains(&format!("  {name}: {ty}\n")), "{name}");
        }
        let headings: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with(' ') && !l.is_empty())
            .collect();
        for heading in &headings {
            let times = headings.iter().filter(|h| *h == heading).count();
            assert_eq!(times, 1, "{heading:?} heads {times} sections");
        }
    }
}
