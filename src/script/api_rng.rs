//! `rng` for scripts, and `math.random` routed to the same stream, exactly
//! as the guide's Determinism chapter specifies.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, MultiValue, UserData, UserDataFields, UserDataMethods, Value};

use super::args::{Args, Six};
use super::cost;
use super::error::located;
use crate::rng::Rng;

/// A stream shared by the `rng` object and `math.random`.
#[derive(Clone)]
pub(crate) struct LuaRng(pub Rc<RefCell<Rng>>);

impl LuaRng {
    pub fn new(rng: Rng) -> LuaRng {
        LuaRng(Rc::new(RefCell::new(rng)))
    }

    fn range(&self, args: &Args, lo: i64, hi: i64) -> mlua::Result<i64> {
        self.0.borrow_mut().range(lo, hi).map_err(|e| args.fail(e))
    }
}

impl UserData for LuaRng {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // Lua integers are 64-bit two's complement, so seeds above 2^63 read
        // as negative; the bits are the same.
        fields.add_field_method_get("seed", |_, r| Ok(r.0.borrow().seed() as i64));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("range", |lua, r, args: Six| {
            let args = Args::new(lua, "rng:range", args);
            let (lo, hi) = (args.int(0, "lo")?, args.int(1, "hi")?);
            r.range(&args, lo, hi)
        });
        methods.add_method("int", |lua, r, args: Six| {
            let args = Args::new(lua, "rng:int", args);
            let n = args.int(0, "n")?;
            let v = r.0.borrow_mut().int_checked(n).map_err(|e| args.fail(e))?;
            Ok(v as i64)
        });
        methods.add_method("float", |_, r, ()| Ok(r.0.borrow_mut().float()));
        methods.add_method("chance", |lua, r, args: Six| {
            let p = Args::new(lua, "rng:chance", args).number(0, "p")?;
            Ok(r.0.borrow_mut().chance(p))
        });
        methods.add_method("coin", |_, r, ()| Ok(r.0.borrow_mut().coin()));
        methods.add_method("pick", |lua, r, args: Six| {
            let args = Args::new(lua, "rng:pick", args);
            let list = args.table(0, "list")?;
            let len = list.raw_len();
            if len == 0 {
                return Err(args.fail("the list is empty"));
            }
            let i = r.0.borrow_mut().int(len as u64) as usize + 1;
            list.raw_get::<Value>(i)
        });
        methods.add_method("weighted", |lua, r, args: Six| {
            let args = Args::new(lua, "rng:weighted", args);
            let list = args.table(0, "list")?;
            let len = list.raw_len();
            if len == 0 {
                return Err(args.fail("the list is empty; give {{value, weight}, ...}"));
            }
            args.charge(cost::CALL_UNITS.saturating_mul(len as u64))?;
            let mut weights = Vec::with_capacity(len);
            for i in 1..=len {
                let entry = match list.raw_get::<Value>(i)? {
                    Value::Table(t) => t,
                    other => {
                        return Err(args.fail(format!(
                            "list[{i}] must be a {{value, weight}} pair, got {}",
                            super::args::show(&other)
                        )))
                    }
                };
                if entry.raw_get::<Value>(1)?.is_nil() {
                    return Err(args.fail(format!("list[{i}][1] (the value) is nil")));
                }
                // A whole float (2.0, 2^31) is the integer, as every
                // other integer argument takes it.
                match super::args::as_whole(entry.raw_get::<Value>(2)?) {
                    Value::Integer(w) if w > 0 => weights.push(w as u64),
                    other => {
                        return Err(args.fail(format!(
                            "list[{i}][2] (the weight) must be a positive integer, got {}",
                            super::args::show(&other)
                        )))
                    }
                }
            }
            let i =
                r.0.borrow_mut()
                    .weighted(&weights)
                    .map_err(|e| args.fail(e))?;
            list.raw_get::<mlua::Table>(i + 1)?.raw_get::<Value>(1)
        });
        methods.add_method("shuffle", |lua, r, args: Six| {
            let args = Args::new(lua, "rng:shuffle", args);
            let list = args.table(0, "list")?;
            args.charge(cost::SWAP_UNITS.saturating_mul(list.raw_len() as u64))?;
            let mut rng = r.0.borrow_mut();
            for i in (2..=list.raw_len()).rev() {
                let j = rng.int(i as u64) as usize + 1;
                let (a, b): (Value, Value) = (list.raw_get(i)?, list.raw_get(j)?);
                list.raw_set(i, b)?;
                list.raw_set(j, a)?;
            }
            Ok(list)
        });
        methods.add_method("fork", |lua, r, args: Six| {
            let args = Args::new(lua, "rng:fork", args);
            // Refused by its length before it is read; then the copy and
            // the hash are paid for.
            let name = args.name(0, "name")?;
            args.charge(cost::text(name.len() as u64))?;
            Ok(LuaRng::new(r.0.borrow().fork(&name)))
        });
        methods.add_meta_method(mlua::MetaMethod::ToString, |_, r, ()| {
            Ok(format!("rng(seed={})", r.0.borrow().seed()))
        });
    }
}

/// The stream `math.random` draws from: the current run's `rng`.
#[derive(Clone, Default)]
pub(crate) struct MathStream(Rc<RefCell<Option<LuaRng>>>);

impl MathStream {
    /// Points `math.random` at this run's stream.
    pub fn route(&self, rng: &LuaRng) {
        *self.0.borrow_mut() = Some(rng.clone());
    }
}

/// Routes `math.random` to the run's `rng` stream and disables
/// `math.randomseed`, so nothing but `--seed` can influence a map. Installed
/// once per VM (the reset keeps them); each run routes its own stream.
pub(crate) fn install_math_random(lua: &Lua) -> mlua::Result<MathStream> {
    let math: mlua::Table = lua.globals().get("math")?;
    let current = MathStream::default();
    let stream = current.clone();
    math.set(
        "random",
        lua.create_function(move |lua, all: MultiValue| {
            // Lua's own raises for more than two (a third was ignored).
            if all.len() > 2 {
                return Err(located(
                    lua,
                    format!(
                        "math.random: wrong number of arguments (it takes none, m, or m and n; got {})",
                        all.len()
                    ),
                ));
            }
            // Counted as Lua counts them: `math.random(nil)` and
            // `math.random(1, nil)` are a bad argument, not fewer.
            let given = all.len();
            let mut all = all.into_iter();
            let mut next = || all.next().unwrap_or(Value::Nil);
            let args: Six = (next(), next(), Value::Nil, Value::Nil, Value::Nil, Value::Nil);
            let args = Args::new(lua, "math.random", args);
            let Some(stream) = stream.0.borrow().clone() else {
                return Err(args.fail("no run is in progress"));
            };
            match given {
                0 => Ok(Value::Number(stream.0.borrow_mut().float())),
                1 => {
                    let m = args.int(0, "m")?;
                    Ok(Value::Integer(stream.range(&args, 1, m)?))
                }
                _ => {
                    let (m, n) = (args.int(0, "m")?, args.int(1, "n")?);
                    Ok(Value::Integer(stream.range(&args, m, n)?))
                }
            }
        })?,
    )?;
    math.set(
        "randomseed",
        lua.create_function(|lua, _: MultiValue| -> mlua::Result<()> {
            Err(located(
                lua,
                "math.randomseed is disabled: the seed comes from --seed (use rng:fork(name) for a separate stream)",
            ))
        })?,
    )?;
    Ok(current)
}

/// Reading the rng object from a call's arguments; here, beside the type,
/// so `args` knows no API object (no module cycle).
pub(crate) trait RngArg {
    /// The `rng` object (or a fork of it).
    fn rng(&self, i: usize) -> mlua::Result<Rc<RefCell<Rng>>>;
}

impl RngArg for Args<'_> {
    fn rng(&self, i: usize) -> mlua::Result<Rc<RefCell<Rng>>> {
        if let Value::UserData(ud) = self.value(i) {
            if let Ok(r) = ud.borrow::<LuaRng>() {
                return Ok(r.0.clone());
            }
        }
        Err(self.bad("rng", "the rng object", i))
    }
}
