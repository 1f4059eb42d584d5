//! Selections and distance maps for scripts: the values the analysis
//! primitives return, with methods that keep per-cell work native.

use mlua::{MetaMethod, MultiValue, UserData, UserDataMethods};

use super::args::Args;
use crate::ops::{DistanceMap, Selection};

/// A set of cells (`map:select`, `map:flood`, a region's `cells`).
pub(crate) struct LuaSelection(pub Selection);

impl UserData for LuaSelection {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("count", |_, s, ()| Ok(s.0.count()));
        methods.add_meta_method(MetaMethod::Len, |_, s, ()| Ok(s.0.count()));
        methods.add_method("contains", |lua, s, values: MultiValue| {
            let a = Args::new(lua, "selection:contains", values);
            Ok(s.0.contains(a.coord(0, "x")? as i32, a.coord(1, "y")? as i32))
        });
        for (name, op) in [
            ("union", Selection::union as fn(&Selection, &Selection) -> _),
            ("intersect", Selection::intersect),
            ("subtract", Selection::subtract),
        ] {
            methods.add_method(name, move |lua, s, values: MultiValue| {
                let a = Args::new(lua, "selection:combine", values);
                let other = a.selection(0, "other")?;
                op(&s.0, &other).map(LuaSelection).map_err(|e| a.fail(e))
            });
        }
        methods.add_method("grow", |lua, s, values: MultiValue| {
            let a = Args::new(lua, "selection:grow", values);
            let times = if a.is_given(0) { a.int(0, "times")? } else { 1 };
            if !(0..=10_000).contains(&times) {
                return Err(a.fail(format!("times must be 0..=10000, got {times}")));
            }
            let mut out = s.0.clone();
            for _ in 0..times {
                out = out.grow();
            }
            Ok(LuaSelection(out))
        });
        methods.add_method("random_cell", |lua, s, values: MultiValue| {
            let a = Args::new(lua, "selection:random_cell", values);
            let rng = a.rng(0)?;
            let cell = s.0.random_cell(&mut rng.borrow_mut());
            Ok(cell.map_or((None, None), |(x, y)| (Some(x), Some(y))))
        });
        methods.add_method("cells", |lua, s, ()| {
            let list = lua.create_table_with_capacity(s.0.count(), 0)?;
            for (i, (x, y)) in s.0.points().enumerate() {
                list.raw_set(i + 1, lua.create_sequence_from([x, y])?)?;
            }
            Ok(list)
        });
        methods.add_meta_method(MetaMethod::ToString, |_, s, ()| {
            Ok(format!("selection({} cells)", s.0.count()))
        });
    }
}

/// Distances from `map:dijkstra`.
pub(crate) struct LuaDistance(pub DistanceMap);

impl UserData for LuaDistance {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("get", |lua, d, values: MultiValue| {
            let a = Args::new(lua, "distance:get", values).on_map(d.0.width(), d.0.height());
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            if x < 0 || y < 0 || x >= d.0.width() as i64 || y >= d.0.height() as i64 {
                return Err(a.fail(format!("cell ({x}, {y}) is off the map")));
            }
            Ok(d.0.get(x as i32, y as i32))
        });
        methods.add_method("farthest", |_, d, ()| {
            Ok(d.0
                .farthest()
                .map_or((None, None, None), |(x, y, v)| (Some(x), Some(y), Some(v))))
        });
        methods.add_method("max", |_, d, ()| Ok(d.0.max()));
        methods.add_meta_method(MetaMethod::ToString, |_, d, ()| {
            Ok(format!("distance map (max {:?})", d.0.max()))
        });
    }
}
