//! The C ABI under wrong values, as a careless or hostile caller gives
//! them: a status that is no status, a capacity that is not the array's, a
//! NULL or stale handle with a big capacity, a module handle outside its
//! loader call. Each call answers with a status (or "unknown") and writes
//! nothing it should not: the slots and out-parameters around it hold
//! canaries that must survive.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicUsize, Ordering};

use dunlua_capi::*;

fn text(p: *const c_char) -> String {
    assert!(!p.is_null());
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// A value no call of dunlua would write: a slot or out-parameter still
/// holding it was not written.
const CANARY: usize = 0xC0FF_EE00;

fn canary() -> *mut DunluaMap {
    CANARY as *mut DunluaMap
}

fn source(name: &str, text: &str) -> *mut DunluaGenerator {
    let (name, text) = (CString::new(name).unwrap(), CString::new(text).unwrap());
    unsafe { dunlua_generator_from_source(name.as_ptr(), text.as_ptr(), None, null_mut()) }
}

/// Three linked levels, 12x8.
const LEVELS: &str = "return { levels = 3, width = 12, height = 8, \
    generate = function(map, rng, p, ctx)\n\
      map:carve_room(Rect.new(1, 1, 8, 5)) map:set_start(1 + ctx.level, 2)\n\
    end }";

#[test]
fn status_name_takes_any_integer_and_names_the_unknown_ones_so() {
    let names = [
        "OK",
        "NULL_ARGUMENT",
        "BAD_HANDLE",
        "INVALID_TEXT",
        "USAGE",
        "SYNTAX",
        "RUNTIME",
        "CONTRACT",
        "LIMIT",
        "TIMED_OUT",
        "CANCELLED",
        "REJECTED",
        "BAD_START",
        "OUT_OF_RANGE",
        "PANIC",
    ];
    for (value, name) in names.iter().enumerate() {
        assert_eq!(
            text(dunlua_status_name(value as i32)),
            format!("DUNLUA_STATUS_{name}")
        );
        let status = DunluaStatus::from_i32(value as i32).unwrap();
        assert_eq!(status as i32, value as i32);
    }
    for value in [15, 16, -1, 255, 256, i32::MIN, i32::MAX] {
        assert_eq!(text(dunlua_status_name(value)), "unknown", "{value}");
        assert_eq!(DunluaStatus::from_i32(value), None);
    }
}

#[test]
fn generate_levels_writes_only_the_slots_of_levels_it_made() {
    let g = source("deep.lua", LEVELS);
    assert_eq!(dunlua_generator_levels(g), 3);
    let mut slots = [canary(); 8];
    let mut count = 77usize;
    // Too small: refused, no slot written, count says how many it needs.
    let status = unsafe { dunlua_generate_levels(g, 5, slots.as_mut_ptr().add(2), 2, &mut count) };
    assert_eq!(status, DunluaStatus::Usage);
    assert_eq!(count, 3, "count is the number of slots needed");
    assert!(slots.iter().all(|&s| s == canary()), "{slots:?}");
    // A capacity far beyond the array (`sizeof maps` for 4): only the
    // three levels' slots are written.
    let status =
        unsafe { dunlua_generate_levels(g, 5, slots.as_mut_ptr().add(2), usize::MAX, &mut count) };
    assert_eq!(status, DunluaStatus::Ok);
    assert_eq!(count, 3);
    assert_eq!(&slots[..2], &[canary(); 2]);
    assert!(slots[2..5].iter().all(|&s| s != canary() && !s.is_null()));
    assert_eq!(&slots[5..], &[canary(); 3]);
    for (i, &map) in slots[2..5].iter().enumerate() {
        assert_eq!(dunlua_map_level(map), i as u32 + 1);
        dunlua_map_free(map);
    }
    // A failed generate writes no slot either, and count 0.
    let g_bad = source(
        "bad.lua",
        "return { levels = 2, generate = function(map, rng, p, ctx)\n\
           if ctx.level == 2 then error('no level 2') end\n\
           map:fill('floor') map:set_start(1, 1)\n\
         end }",
    );
    let mut slots = [canary(); 4];
    let status = unsafe { dunlua_generate_levels(g_bad, 1, slots.as_mut_ptr(), 4, &mut count) };
    assert_eq!(status, DunluaStatus::Runtime);
    assert_eq!(count, 0);
    assert_eq!(slots, [canary(); 4]);
    dunlua_generator_free(g_bad);
    dunlua_generator_free(g);
}

#[test]
fn a_null_or_stale_generator_with_a_big_capacity_writes_nothing() {
    let g = source("deep.lua", LEVELS);
    let mut map = null_mut();
    unsafe { assert_eq!(dunlua_generate(g, 1, &mut map), DunluaStatus::Ok) };
    let freed = source("deep.lua", LEVELS);
    dunlua_generator_free(freed);
    for bad in [
        null_mut(),
        freed,
        map as *mut DunluaGenerator,
        0x1234 as *mut _,
        usize::MAX as *mut _,
    ] {
        let mut one = [canary()];
        let mut count = 77usize;
        let status = unsafe { dunlua_generate_levels(bad, 1, one.as_mut_ptr(), 1000, &mut count) };
        assert_eq!(status, DunluaStatus::BadHandle, "{bad:?}");
        assert_eq!((one, count), ([canary()], 77), "{bad:?}");
    }
    // A live generator with a NULL `out` or `count` writes nothing either.
    let mut count = 77usize;
    let status = unsafe { dunlua_generate_levels(g, 1, null_mut(), 1000, &mut count) };
    assert_eq!((status, count), (DunluaStatus::NullArgument, 77));
    let mut one = [canary()];
    let status = unsafe { dunlua_generate_levels(g, 1, one.as_mut_ptr(), 1000, null_mut()) };
    assert_eq!((status, one), (DunluaStatus::NullArgument, [canary()]));
    dunlua_map_free(map);
    dunlua_generator_free(g);
}

#[test]
fn generate_writes_its_out_only_once_the_arguments_are_checked() {
    let mut out = canary();
    // Made-up handles are odd: ids are multiples of 16, and another test
    // running in parallel may hold any even one.
    for bad in [null_mut(), 0x21 as *mut DunluaGenerator] {
        let status = unsafe { dunlua_generate(bad, 1, &mut out) };
        assert_eq!((status, out), (DunluaStatus::BadHandle, canary()));
    }
    // Checked, and then failing: `*out` is NULL.
    let g = source("broken.lua", "return {");
    let status = unsafe { dunlua_generate(g, 1, &mut out) };
    assert_eq!(status, DunluaStatus::Syntax);
    assert!(out.is_null());
    dunlua_generator_free(g);
}

#[test]
fn map_start_writes_neither_coordinate_when_one_is_null() {
    let g = source("deep.lua", LEVELS);
    let mut map = null_mut();
    unsafe { assert_eq!(dunlua_generate(g, 1, &mut map), DunluaStatus::Ok) };
    let (mut x, mut y) = (-7, -7);
    unsafe {
        assert_eq!(
            dunlua_map_start(map, &mut x, null_mut()),
            DunluaStatus::NullArgument
        );
        assert_eq!(
            dunlua_map_start(map, null_mut(), &mut y),
            DunluaStatus::NullArgument
        );
        assert_eq!(
            dunlua_map_start(g as *const DunluaMap, &mut x, &mut y),
            DunluaStatus::BadHandle
        );
    }
    assert_eq!((x, y), (-7, -7));
    unsafe { assert_eq!(dunlua_map_start(map, &mut x, &mut y), DunluaStatus::Ok) };
    assert_eq!((x, y), (2, 2));
    dunlua_map_free(map);
    dunlua_generator_free(g);
}

/// The module handle the loader was last given.
static LAST_MODULE: AtomicUsize = AtomicUsize::new(0);

/// Keeps its module handle, and gives a length no buffer has.
unsafe extern "C" fn keeps_its_handle(_: *mut c_void, _: *const c_char, module: *mut DunluaModule) {
    LAST_MODULE.store(module as usize, Ordering::SeqCst);
    // A live module handle is no map.
    assert_eq!(dunlua_map_width(module as *const DunluaMap), 0);
    assert_eq!(
        text(dunlua_last_error()),
        "a module handle was given where a map was expected"
    );
    let status = unsafe { dunlua_module_set_source(module, c"return 1".as_ptr(), usize::MAX - 1) };
    assert_eq!(status, DunluaStatus::Usage);
}

#[test]
fn module_handles_are_checked_like_the_others() {
    let name = CString::new("x.lua").unwrap();
    let script =
        CString::new("local m = require('lib.m')\nreturn { generate = function() end }").unwrap();
    let g = unsafe {
        dunlua_generator_from_source(
            name.as_ptr(),
            script.as_ptr(),
            Some(keeps_its_handle),
            null_mut(),
        )
    };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::Runtime);
    let message = text(dunlua_generator_error(g));
    assert!(
        message.contains("dunlua_module_set_source: length 18446744073709551614")
            || message.contains("dunlua_module_set_source: length 4294967294"),
        "{message}"
    );
    // Outside its loader call, a module handle is stale; a generator or a
    // map handle, NULL or a made-up number is no module; none is written.
    let stale = LAST_MODULE.load(Ordering::SeqCst);
    assert_ne!(stale, 0);
    let mut map = null_mut();
    let deep = source("deep.lua", LEVELS);
    unsafe { assert_eq!(dunlua_generate(deep, 1, &mut map), DunluaStatus::Ok) };
    for bad in [stale, 0, g as usize, map as usize, 0x30, 0x31] {
        let status =
            unsafe { dunlua_module_set_source(bad as *mut DunluaModule, c"return 1".as_ptr(), 8) };
        assert_eq!(status, DunluaStatus::BadHandle, "{bad:#x}");
    }
    assert_eq!(
        text(dunlua_last_error()),
        "0x31 is not a live module handle (its loader call is over, or it never was one)"
    );
    // The stale module handle is no generator or map either.
    assert_eq!(
        dunlua_generator_status(stale as *const DunluaGenerator),
        DunluaStatus::BadHandle
    );
    dunlua_map_free(stale as *mut DunluaMap);
    assert_eq!(dunlua_map_width(map), 12, "a wrong free frees nothing");
    dunlua_map_free(map);
    dunlua_generator_free(deep);
    dunlua_generator_free(g);
}

#[test]
fn set_bool_takes_any_integer() {
    let g = source(
        "flag.lua",
        "return { width = 6, height = 6, params = { wet = false }, \
           generate = function(map, rng, p)\n\
             map:fill('floor') map:set_start(1, 1)\n\
             if p.wet then map:set(2, 2, 'water') end\n\
           end }",
    );
    let wet = CString::new("wet").unwrap();
    let hash = |value| {
        assert_eq!(
            unsafe { dunlua_generator_set_bool(g, wet.as_ptr(), value) },
            DunluaStatus::Ok
        );
        let mut map = null_mut();
        unsafe { assert_eq!(dunlua_generate(g, 1, &mut map), DunluaStatus::Ok) };
        let hash = dunlua_map_hash(map);
        dunlua_map_free(map);
        hash
    };
    let (dry, wet_hash) = (hash(0), hash(1));
    assert_ne!(dry, wet_hash);
    for value in [2, -1, 256, i32::MIN] {
        assert_eq!(hash(value), wet_hash, "{value} is true");
    }
    assert_eq!(
        unsafe { dunlua_generator_set_bool(g, null(), 1) },
        DunluaStatus::NullArgument
    );
    dunlua_generator_free(g);
}

/// Attempts outside 1..=10000 (what the CLI's --max-attempts takes) are
/// refused with a usage status and a message, and the generator keeps
/// what it had; 0 was taken as 1 and four billion was taken as it was.
#[test]
fn max_attempts_outside_the_clis_range_are_refused() {
    let g = source("a.lua", LEVELS);
    for wrong in [0, 10_001, 4_000_000_000] {
        assert_eq!(
            dunlua_generator_set_max_attempts(g, wrong),
            DunluaStatus::Usage,
            "{wrong}"
        );
        assert_eq!(
            text(dunlua_generator_error(g)),
            format!("max_attempts {wrong}: expected 1..=10000")
        );
    }
    assert_eq!(
        dunlua_generator_set_max_attempts(g, 10_000),
        DunluaStatus::Ok
    );
    assert_eq!(dunlua_generator_set_max_attempts(g, 1), DunluaStatus::Ok);
    let mut out = canary();
    assert_eq!(unsafe { dunlua_generate(g, 1, &mut out) }, DunluaStatus::Ok);
    dunlua_map_free(out);
    dunlua_generator_free(g);
}
