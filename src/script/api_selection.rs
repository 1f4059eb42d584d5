//! Selections and distance maps for scripts: the values the analysis
//! primitives return, with methods that keep per-cell work native.

use mlua::{MetaMethod, MultiValue, UserData, UserDataMethods};

use super::api_rng::RngArg;
use super::args::Args;
use super::budget::{self, Reservation};
use super::cost;
use crate::ops::{DistanceMap, Noise, Selection};

/// A set of cells (`map:select`, `map:flood`, a region's `cells`), its
/// memory counted against the run's limit while it lives (the reservation
/// is held only for its drop).
pub(crate) struct LuaSelection(pub Selection, #[allow(dead_code)] pub(crate) Reservation);

impl LuaSelection {
    /// Wraps `selection` made by the call `a`, reserving its memory.
    pub(crate) fn held(a: &Args, selection: Selection) -> mlua::Result<LuaSelection> {
        let held = a.reserve(selection.heap_bytes())?;
        Ok(LuaSelection(selection, held))
    }
}

/// Units of work for `times` grow steps of a selection of `count` cells on a
/// map of `area` cells: each step looks at the 9 cells around every cell it
/// has, and a selection cannot grow past the map.
fn grow_cost(count: u64, area: u64, times: u64) -> u64 {
    let (mut total, mut size) = (0u64, count.max(1));
    for _ in 0..times {
        total = total.saturating_add(cost::visited(size.saturating_mul(9)));
        size = size.saturating_mul(9).min(area);
    }
    total
}

impl UserData for LuaSelection {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("count", |_, s, ()| Ok(s.0.count()));
        methods.add_meta_method(MetaMethod::Len, |_, s, ()| Ok(s.0.count()));
        methods.add_method("contains", |lua, s, values: MultiValue| {
            let a = Args::new(lua, "selection:contains", values);
            Ok(s.0.contains(a.coord(0, "x")? as i32, a.coord(1, "y")? as i32))
        });
        for (name, api, op) in [
            (
                "union",
                "selection:union",
                Selection::union as fn(&Selection, &Selection) -> _,
            ),
            ("intersect", "selection:intersect", Selection::intersect),
            ("subtract", "selection:subtract", Selection::subtract),
        ] {
            methods.add_method(name, move |lua, s, values: MultiValue| {
                let a = Args::new(lua, api, values);
                let other = a.selection(0, "other")?;
                a.charge(cost::visited(s.0.count() as u64 + other.count() as u64))?;
                let combined = op(&s.0, &other).map_err(|e| a.fail(e))?;
                LuaSelection::held(&a, combined)
            });
        }
        methods.add_method("grow", |lua, s, values: MultiValue| {
            let a = Args::new(lua, "selection:grow", values);
            let times = if a.is_given(0) { a.int(0, "times")? } else { 1 };
            if !(0..=10_000).contains(&times) {
                return Err(a.fail(format!("times must be 0..=10000, got {times}")));
            }
            a.charge(grow_cost(s.0.count() as u64, s.0.area(), times as u64))?;
            // The result can hold at most every cell of the map.
            let _room = a.reserve(s.0.area() as usize * std::mem::size_of::<u32>())?;
            let mut out = s.0.clone();
            for _ in 0..times {
                out = out.grow();
            }
            LuaSelection::held(&a, out)
        });
        methods.add_method("random_cell", |lua, s, values: MultiValue| {
            let a = Args::new(lua, "selection:random_cell", values);
            let rng = a.rng(0)?;
            let cell = s.0.random_cell(&mut rng.borrow_mut());
            Ok(cell.map_or((None, None), |(x, y)| (Some(x), Some(y))))
        });
        methods.add_method("cells", |lua, s, ()| {
            budget::charge(lua, "selection:cells", cost::visited(s.0.count() as u64))?;
            budget::make_room(
                lua,
                "selection:cells",
                s.0.count().saturating_mul(cost::POINT_TABLE_BYTES),
            )?;
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

/// Distances from `map:dijkstra`, their memory counted while they live.
pub(crate) struct LuaDistance(pub DistanceMap, #[allow(dead_code)] pub(crate) Reservation);

impl LuaDistance {
    /// Wraps `distances` made by the call `a`, reserving their memory.
    pub(crate) fn held(a: &Args, distances: DistanceMap) -> mlua::Result<LuaDistance> {
        let held = a.reserve(distances.heap_bytes())?;
        Ok(LuaDistance(distances, held))
    }

    fn area(&self) -> u64 {
        self.0.width() as u64 * self.0.height() as u64
    }
}

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
        methods.add_method("farthest", |lua, d, values: MultiValue| {
            let a = Args::new(lua, "distance:farthest", values).on_map(d.0.width(), d.0.height());
            budget::charge(lua, "distance:farthest", cost::visited(d.area()))?;
            let within = match a.options(0)? {
                Some(opts) => {
                    a.only_options(&opts, &["within"])?;
                    a.opt_selection(&opts, "within", (d.0.width(), d.0.height()))?
                }
                None => None,
            };
            let found = match &within {
                Some(sel) => d.0.farthest_within(sel),
                None => d.0.farthest(),
            };
            Ok(found.map_or((None, None, None), |(x, y, v)| (Some(x), Some(y), Some(v))))
        });
        methods.add_method("max", |lua, d, ()| {
            budget::charge(lua, "distance:max", cost::visited(d.area()))?;
            Ok(d.0.max())
        });
        methods.add_meta_method(MetaMethod::ToString, |_, d, ()| {
            let max = d.0.max().map_or("none".to_string(), |m| m.to_string());
            Ok(format!("distance map (max {max})"))
        });
    }
}

/// A noise field (`map:noise`), holding the memory it reserved.
pub(crate) struct LuaNoise(pub(crate) Noise, #[allow(dead_code)] pub(crate) Reservation);

impl LuaNoise {
    /// Wraps `field` made by the call `a`, reserving its memory.
    pub(crate) fn held(a: &Args, field: Noise) -> mlua::Result<LuaNoise> {
        let held = a.reserve(field.heap_bytes())?;
        Ok(LuaNoise(field, held))
    }
}

impl UserData for LuaNoise {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("get", |lua, f, values: MultiValue| {
            let a = Args::new(lua, "field:get", values).on_map(f.0.width(), f.0.height());
            let (x, y) = (a.coord(0, "x")?, a.coord(1, "y")?);
            f.0.get(x, y)
                .ok_or_else(|| a.fail(format!("cell ({x}, {y}) is off the map")))
        });
        methods.add_method("select", |lua, f, values: MultiValue| {
            let a = Args::new(lua, "field:select", values).on_map(f.0.width(), f.0.height());
            let (lo, hi) = (a.number(0, "lo")?, a.number(1, "hi")?);
            a.charge(cost::visited(f.0.width() as u64 * f.0.height() as u64))?;
            let _mask = a.reserve(f.0.width() as usize * f.0.height() as usize)?;
            LuaSelection::held(&a, f.0.select(lo, hi))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, f, ()| {
            Ok(format!("noise field ({}x{})", f.0.width(), f.0.height()))
        });
    }
}

/// Reading selections from a call's arguments; here, beside the type, so
/// `args` knows no API object (no module cycle).
pub(crate) trait SelectionArg {
    /// A selection made by `map:select`, `map:flood`, ... (borrowed where
    /// it is: a copy of a big one was a fresh block of up to 16 MB).
    fn selection(&self, i: usize, what: &str) -> mlua::Result<SelectionRef>;
    /// A selection in an options table (`{avoid = sel}`), if given; it must
    /// be of a map this size. Reading it is charged as cells visited.
    fn opt_selection(
        &self,
        opts: &mlua::Table,
        key: &str,
        size: (i32, i32),
    ) -> mlua::Result<Option<SelectionRef>>;
}

/// A selection argument, borrowed from its userdata for the call.
pub(crate) type SelectionRef = mlua::UserDataRef<LuaSelection>;

impl std::ops::Deref for LuaSelection {
    type Target = Selection;

    fn deref(&self) -> &Selection {
        &self.0
    }
}

impl SelectionArg for Args<'_> {
    fn selection(&self, i: usize, what: &str) -> mlua::Result<SelectionRef> {
        if let mlua::Value::UserData(ud) = self.value(i) {
            if let Ok(s) = ud.borrow::<LuaSelection>() {
                return Ok(s);
            }
        }
        Err(self.bad(what, "a selection (from map:select)", i))
    }

    fn opt_selection(
        &self,
        opts: &mlua::Table,
        key: &str,
        size: (i32, i32),
    ) -> mlua::Result<Option<SelectionRef>> {
        let value: mlua::Value = opts.get(key)?;
        let sel = match &value {
            mlua::Value::Nil => return Ok(None),
            mlua::Value::UserData(ud) => ud.borrow::<LuaSelection>().ok(),
            _ => None,
        };
        let Some(sel) = sel else {
            return Err(self.fail(format!(
                "{key} must be a selection (from map:select), got {}",
                super::args::show(&value)
            )));
        };
        self.charge(cost::visited(sel.count() as u64))?;
        if (sel.width(), sel.height()) != size {
            return Err(self.fail(format!(
                "{key} is a selection of a {}x{} map, not of this {}x{} one",
                sel.width(),
                sel.height(),
                size.0,
                size.1
            )));
        }
        Ok(Some(sel))
    }
}
