//! The C ABI under wrong values, as a careless or hostile caller gives
//! them: a status that is no status, a flag that is neither 0 nor 1. Each
//! call answers with a status (or "unknown").

use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

use dunlua_capi::*;

fn text(p: *const c_char) -> String {
    assert!(!p.is_null());
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

fn source(name: &str, text: &str) -> *mut DunluaGenerator {
    let (name, text) = (CString::new(name).unwrap(), CString::new(text).unwrap());
    unsafe { dunlua_generator_from_source(name.as_ptr(), text.as_ptr(), None, null_mut()) }
}

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
