//! The C ABI under wrong values, as a careless or hostile caller gives
//! them: a status that is no status, a flag that is neither 0 nor 1, a
//! module handle outside its loader call or a length no buffer has. Each
//! call answers with a status (or "unknown").

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicUsize, Ordering};

use dunlua_capi::*;

fn text(p: *const c_char) -> String {
    assert!(!p.is_null());
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
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
