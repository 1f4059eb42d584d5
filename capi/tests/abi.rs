//! The C ABI's promises, called from Rust as a C caller would: bad handles
//! and NULLs give statuses, never crashes; a loader calling back into its
//! own generator gets an error, not a deadlock; one generator shared by
//! threads takes turns and gives the same maps; freeing a generator while
//! another thread generates with it is safe.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};

use dunlua_capi::*;

fn text(p: *const c_char) -> String {
    assert!(!p.is_null());
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

fn rooms() -> CString {
    CString::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/rooms.lua")).unwrap()
}

fn generate_hash(g: *mut DunluaGenerator, seed: u64) -> Result<u64, (DunluaStatus, String)> {
    let mut map = null_mut();
    let status = unsafe { dunlua_generate(g, seed, &mut map) };
    if status != DunluaStatus::Ok {
        assert!(map.is_null());
        return Err((status, text(dunlua_generator_error(g))));
    }
    let hash = dunlua_map_hash(map);
    dunlua_map_free(map);
    Ok(hash)
}

#[test]
fn nulls_and_bad_handles_are_statuses() {
    let mut map = null_mut();
    unsafe {
        assert_eq!(
            dunlua_generate(null_mut(), 1, &mut map),
            DunluaStatus::BadHandle
        );
        assert_eq!(
            dunlua_generate(usize::MAX as *mut _, 1, &mut map),
            DunluaStatus::BadHandle
        );
        assert_eq!(
            dunlua_generate(0x13 as *mut _, 1, &mut map),
            DunluaStatus::BadHandle
        );
    }
    assert_eq!(
        text(dunlua_last_error()),
        "0x13 is not a live generator handle (freed, or never made by dunlua)"
    );
    let g = unsafe { dunlua_generator_from_file(rooms().as_ptr()) };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::Ok);
    unsafe {
        assert_eq!(
            dunlua_generate(g, 1, null_mut()),
            DunluaStatus::NullArgument
        );
        assert_eq!(dunlua_generate(g, 1, &mut map), DunluaStatus::Ok);
        // Levels: bad handles, NULL out or count, and a one-level script.
        let mut levels = [null_mut(); 2];
        let mut count = 9usize;
        assert_eq!(
            dunlua_generate_levels(null_mut(), 1, levels.as_mut_ptr(), 2, &mut count),
            DunluaStatus::BadHandle
        );
        assert_eq!(count, 9, "a call refused for its arguments writes nothing");
        assert_eq!(
            dunlua_generate_levels(g, 1, null_mut(), 2, &mut count),
            DunluaStatus::NullArgument
        );
        assert_eq!(
            dunlua_generate_levels(g, 1, levels.as_mut_ptr(), 2, null_mut()),
            DunluaStatus::NullArgument
        );
        assert_eq!(dunlua_generator_levels(null()), 0);
        assert_eq!(dunlua_map_level(null()), 0);
        assert_eq!(dunlua_generator_levels(g), 1);
        assert_eq!(
            dunlua_generate_levels(g, 1, levels.as_mut_ptr(), 2, &mut count),
            DunluaStatus::Ok
        );
        assert_eq!(count, 1);
        assert_eq!(
            dunlua_map_hash(levels[0]),
            dunlua_map_hash(map),
            "level 1 is the map"
        );
        assert_eq!(dunlua_map_level(levels[0]), 1);
        assert!(levels[1].is_null());
        dunlua_map_free(levels[0]);
        assert_eq!(dunlua_generator_set_levels(g, 0), DunluaStatus::Usage);
        assert_eq!(
            dunlua_generator_levels(g),
            1,
            "a refused change is not kept"
        );
        assert_eq!(
            dunlua_generator_set_int(g, null(), 3),
            DunluaStatus::NullArgument
        );
        let bad = [0xffu8, 0];
        assert_eq!(
            dunlua_generator_set_int(g, bad.as_ptr() as *const c_char, 3),
            DunluaStatus::InvalidText
        );
    }
    // A map where a generator is expected, and the other way round.
    let mut other = null_mut();
    unsafe {
        assert_eq!(
            dunlua_generate(map as *mut DunluaGenerator, 1, &mut other),
            DunluaStatus::BadHandle
        );
    }
    assert!(
        text(dunlua_last_error()).contains("a map handle was given where a generator was expected")
    );
    assert_eq!(dunlua_map_width(g as *const DunluaMap), 0);
    dunlua_map_free(g as *mut DunluaMap); // not a map: nothing happens
    dunlua_generator_free(map as *mut DunluaGenerator); // not a generator: nothing happens
    assert_eq!(dunlua_map_width(map), 80);
    assert!(generate_hash(g, 2).is_ok());
    dunlua_map_free(map);
    dunlua_map_free(map);
    assert_eq!(dunlua_map_width(map), 0);
    assert!(dunlua_map_tiles(map).is_null());
    dunlua_generator_free(g);
    dunlua_generator_free(g);
    assert_eq!(dunlua_generator_status(g), DunluaStatus::BadHandle);
    assert!(text(dunlua_generator_error(g)).contains("is not a live generator handle"));
}

#[test]
fn a_generator_that_never_built_repeats_why() {
    let name = CString::new("broken.lua").unwrap();
    let source = CString::new("return {").unwrap();
    let g =
        unsafe { dunlua_generator_from_source(name.as_ptr(), source.as_ptr(), None, null_mut()) };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::Syntax);
    let first = text(dunlua_generator_error(g));
    assert!(first.starts_with("broken.lua:1:"), "{first}");
    assert_eq!(
        generate_hash(g, 1),
        Err((DunluaStatus::Syntax, first.clone()))
    );
    // A setter cannot build it either, and says so.
    assert_eq!(dunlua_generator_set_size(g, 10, 10), DunluaStatus::Syntax);
    dunlua_generator_free(g);
}

/// A loader whose user data is a pointer to its generator's handle.
unsafe extern "C" fn calls_its_own_generator(
    user_data: *mut c_void,
    _path: *const c_char,
    module: *mut DunluaModule,
) {
    let g = unsafe { *(user_data as *const *mut DunluaGenerator) };
    let status = dunlua_generator_status(g);
    let message = text(dunlua_last_error());
    // Setters and generate are refused the same way.
    assert_eq!(dunlua_generator_set_size(g, 9, 9), DunluaStatus::Usage);
    let source = CString::new(format!(
        "return {{ status = {}, message = {:?} }}",
        status as i32, message
    ))
    .unwrap();
    unsafe { dunlua_module_set_source(module, source.as_ptr(), usize::MAX) };
}

#[test]
fn a_loader_calling_its_own_generator_gets_an_error_not_a_deadlock() {
    let name = CString::new("mods/x.lua").unwrap();
    // The module is required inside generate, once the handle exists.
    let source = CString::new(
        "return { width = 8, height = 8, generate = function(map)\n\
           local m = require('lib.m')\n\
           assert(m.status == 4, m.status)\n\
           assert(m.message:find('inside its own module loader', 1, true), m.message)\n\
           map:fill('floor') map:set_start(1, 1)\n\
         end }",
    )
    .unwrap();
    let mut handle: Box<*mut DunluaGenerator> = Box::new(null_mut());
    let g = unsafe {
        dunlua_generator_from_source(
            name.as_ptr(),
            source.as_ptr(),
            Some(calls_its_own_generator),
            &mut *handle as *mut *mut DunluaGenerator as *mut c_void,
        )
    };
    *handle = g;
    assert_eq!(dunlua_generator_status(g), DunluaStatus::Ok);
    generate_hash(g, 1).unwrap();
    dunlua_generator_free(g);
}

unsafe extern "C" fn gives_latin1(_: *mut c_void, _: *const c_char, module: *mut DunluaModule) {
    let text = b"return '\xe9t\xe9'";
    let status =
        unsafe { dunlua_module_set_source(module, text.as_ptr() as *const c_char, text.len()) };
    assert_eq!(status, DunluaStatus::InvalidText);
}

#[test]
fn a_module_text_that_is_not_utf8_is_refused_saying_so() {
    let name = CString::new("x.lua").unwrap();
    let source =
        CString::new("local m = require('lib.m')\nreturn { generate = function() end }").unwrap();
    let g = unsafe {
        dunlua_generator_from_source(
            name.as_ptr(),
            source.as_ptr(),
            Some(gives_latin1),
            null_mut(),
        )
    };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::Runtime);
    assert_eq!(
        text(dunlua_generator_error(g)),
        "x.lua:1: require: module 'lib.m' refused: the game's loader: lib/m.lua: \
         dunlua_module_set_source: the module text is not UTF-8 (byte 8)"
    );
    dunlua_generator_free(g);
}

#[test]
fn threads_sharing_a_generator_take_turns_and_agree() {
    let g = unsafe { dunlua_generator_from_file(rooms().as_ptr()) } as usize;
    let expected: Vec<u64> = (0..40)
        .map(|s| generate_hash(g as *mut _, s).unwrap())
        .collect();
    let workers: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(move || {
                (0..40)
                    .map(|s| generate_hash(g as *mut _, s).unwrap())
                    .collect::<Vec<u64>>()
            })
        })
        .collect();
    for worker in workers {
        assert_eq!(worker.join().unwrap(), expected);
    }
    // Freed while another thread generates with it: that run finishes or
    // sees a bad handle; nothing crashes.
    // The runner goes on until it sees the free (a fixed number of runs
    // could all finish before it on a fast build).
    let runner = std::thread::spawn(move || {
        (0..10_000_000u64).find(|&s| {
            generate_hash(g as *mut _, s).map_err(|(status, _)| status)
                == Err(DunluaStatus::BadHandle)
        })
    });
    std::thread::sleep(std::time::Duration::from_millis(20));
    dunlua_generator_free(g as *mut _);
    let refused = runner.join().unwrap();
    assert!(
        refused.is_some(),
        "runs after the free must see a bad handle"
    );
}

#[test]
fn map_readers_check_their_indexes() {
    let g = unsafe { dunlua_generator_from_file(rooms().as_ptr()) };
    let mut map = null_mut();
    unsafe { assert_eq!(dunlua_generate(g, 7, &mut map), DunluaStatus::Ok) };
    let kinds = dunlua_map_tile_kind_count(map);
    let mut kind = std::mem::MaybeUninit::<DunluaTileKind>::uninit();
    unsafe {
        assert_eq!(
            dunlua_map_tile_kind(map, kinds - 1, kind.as_mut_ptr()),
            DunluaStatus::Ok
        );
        assert_eq!(
            dunlua_map_tile_kind(map, kinds, kind.as_mut_ptr()),
            DunluaStatus::OutOfRange
        );
        assert_eq!(
            dunlua_map_tile_kind(map, 0, null_mut()),
            DunluaStatus::NullArgument
        );
        let mut marker = std::mem::MaybeUninit::<DunluaMarker>::uninit();
        let markers = dunlua_map_marker_count(map);
        assert_eq!(
            dunlua_map_marker(map, markers, marker.as_mut_ptr()),
            DunluaStatus::OutOfRange
        );
        assert_eq!(
            text(dunlua_last_error()),
            format!("marker {markers} does not exist (there are {markers})")
        );
        let (mut x, mut y) = (0, 0);
        assert_eq!(dunlua_map_start(map, &mut x, &mut y), DunluaStatus::Ok);
        assert_eq!(
            dunlua_map_start(map, &mut x, null_mut()),
            DunluaStatus::NullArgument
        );
    }
    assert_eq!(text(dunlua_last_error()), "y is NULL");
    assert_eq!(dunlua_map_width(map), 80);
    assert_eq!(text(dunlua_last_error()), "", "a call that works clears it");
    let json = text(dunlua_map_json(map));
    assert!(json.contains(&format!("\"hash\": \"{:016x}\"", dunlua_map_hash(map))));
    assert_eq!(dunlua_map_seed(map), 7);
    dunlua_map_free(map);
    dunlua_generator_free(g);
}

#[test]
fn everything_a_map_handle_reads_is_the_generated_map() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/vaults.lua");
    let level = dunlua::Generator::file(path)
        .build()
        .unwrap()
        .generate(3)
        .unwrap();
    assert!(
        !level.markers().is_empty(),
        "vaults.lua marks treasure and altars"
    );
    let c_path = CString::new(path).unwrap();
    let g = unsafe { dunlua_generator_from_file(c_path.as_ptr()) };
    let mut map = null_mut();
    unsafe { assert_eq!(dunlua_generate(g, 3, &mut map), DunluaStatus::Ok) };
    let (w, h) = (
        dunlua_map_width(map) as usize,
        dunlua_map_height(map) as usize,
    );
    assert_eq!((w, h), (level.width(), level.height()));
    let tiles = unsafe { std::slice::from_raw_parts(dunlua_map_tiles(map), w * h) };
    assert_eq!(tiles, level.tile_ids().as_slice());
    let kinds: Vec<_> = level.tile_kinds().collect();
    assert_eq!(dunlua_map_tile_kind_count(map), kinds.len());
    for (id, (_, kind)) in kinds.iter().enumerate() {
        let mut c = std::mem::MaybeUninit::<DunluaTileKind>::uninit();
        let c = unsafe {
            assert_eq!(
                dunlua_map_tile_kind(map, id, c.as_mut_ptr()),
                DunluaStatus::Ok
            );
            c.assume_init()
        };
        assert_eq!(text(c.name), kind.name);
        assert_eq!(text(c.glyph), kind.glyph.to_string());
        assert_eq!(c.codepoint, kind.glyph as u32);
        let rgb = |c: dunlua::map::Rgb| (c.0 as u32) << 16 | (c.1 as u32) << 8 | c.2 as u32;
        assert_eq!(
            (c.color, c.background),
            (rgb(kind.color), rgb(kind.background))
        );
        assert_eq!(
            (c.walkable, c.transparent),
            (kind.walkable, kind.transparent)
        );
    }
    assert_eq!(dunlua_map_room_count(map), level.rooms().len());
    for (i, r) in level.rooms().iter().enumerate() {
        let mut c = std::mem::MaybeUninit::<DunluaRoom>::uninit();
        let c = unsafe {
            assert_eq!(dunlua_map_room(map, i, c.as_mut_ptr()), DunluaStatus::Ok);
            c.assume_init()
        };
        assert_eq!((c.x1, c.y1, c.x2, c.y2), (r.x1, r.y1, r.x2, r.y2));
    }
    assert_eq!(dunlua_map_marker_count(map), level.markers().len());
    for (i, m) in level.markers().iter().enumerate() {
        let mut c = std::mem::MaybeUninit::<DunluaMarker>::uninit();
        let c = unsafe {
            assert_eq!(dunlua_map_marker(map, i, c.as_mut_ptr()), DunluaStatus::Ok);
            c.assume_init()
        };
        assert_eq!((c.x, c.y, text(c.name)), (m.x, m.y, m.name.clone()));
    }
    let (mut x, mut y) = (-1, -1);
    unsafe { dunlua_map_start(map, &mut x, &mut y) };
    assert_eq!((x, y), level.start());
    assert_eq!(dunlua_map_hash(map), level.hash());
    assert_eq!(text(dunlua_map_json(map)), level.to_json());
    dunlua_map_free(map);
    dunlua_generator_free(g);
}

/// Marker properties (typed) and room names and kinds, read through the C
/// functions, equal the Rust map's, for scripts that use them; bad indexes
/// are statuses or NULL with a message.
#[test]
fn marker_properties_and_room_names_are_the_generated_maps() {
    use dunlua::params::ParamValue;
    let mut seen_props = 0;
    let mut seen_names = 0;
    for script in ["levels.lua", "digger.lua", "keys.lua"] {
        let path = format!("{}/../scripts/{script}", env!("CARGO_MANIFEST_DIR"));
        let level = dunlua::Generator::file(&path)
            .build()
            .unwrap()
            .generate(3)
            .unwrap();
        let c_path = CString::new(path).unwrap();
        let g = unsafe { dunlua_generator_from_file(c_path.as_ptr()) };
        let mut map = null_mut();
        unsafe { assert_eq!(dunlua_generate(g, 3, &mut map), DunluaStatus::Ok) };
        for (i, m) in level.markers().iter().enumerate() {
            assert_eq!(dunlua_map_marker_property_count(map, i), m.props.len());
            for (j, (key, value)) in m.props.iter().enumerate() {
                let mut c = std::mem::MaybeUninit::<DunluaProperty>::uninit();
                let c = unsafe {
                    assert_eq!(
                        dunlua_map_marker_property(map, i, j, c.as_mut_ptr()),
                        DunluaStatus::Ok
                    );
                    c.assume_init()
                };
                assert_eq!(text(c.key), *key, "{script}");
                let read = match c.kind {
                    DunluaValueKind::Integer => {
                        assert_eq!(c.number, c.integer as f64);
                        ParamValue::Integer(c.integer)
                    }
                    DunluaValueKind::Number => ParamValue::Number(c.number),
                    DunluaValueKind::Boolean => ParamValue::Boolean(c.boolean),
                    DunluaValueKind::Text => ParamValue::Text(text(c.text)),
                };
                assert_eq!(read, *value, "{script} marker {i} {key}");
                assert_eq!(c.text.is_null(), c.kind != DunluaValueKind::Text);
                seen_props += 1;
            }
            let mut c = std::mem::MaybeUninit::<DunluaProperty>::uninit();
            let past = m.props.len();
            unsafe {
                assert_eq!(
                    dunlua_map_marker_property(map, i, past, c.as_mut_ptr()),
                    DunluaStatus::OutOfRange
                );
            }
            assert_eq!(
                text(dunlua_last_error()),
                format!("property {past} does not exist (there are {past})")
            );
        }
        let markers = level.markers().len();
        assert_eq!(dunlua_map_marker_property_count(map, markers), 0);
        assert_eq!(
            text(dunlua_last_error()),
            format!("marker {markers} does not exist (there are {markers})")
        );
        let details = level.map.room_details();
        for (i, d) in details.iter().enumerate() {
            let read = |p: *const c_char| (!p.is_null()).then(|| text(p));
            assert_eq!(
                read(dunlua_map_room_name(map, i)),
                d.name,
                "{script} room {i}"
            );
            assert_eq!(
                read(dunlua_map_room_kind(map, i)),
                d.kind,
                "{script} room {i}"
            );
            seen_names += usize::from(d.name.is_some() || d.kind.is_some());
        }
        assert!(dunlua_map_room_name(map, details.len()).is_null());
        assert!(text(dunlua_last_error())
            .starts_with(&format!("room {} does not exist", details.len())));
        assert!(dunlua_map_room_kind(null_mut(), 0).is_null());
        assert_eq!(dunlua_map_marker_property_count(null_mut(), 0), 0);
        dunlua_map_free(map);
        dunlua_generator_free(g);
    }
    assert!(
        seen_props > 0 && seen_names > 0,
        "{seen_props} properties, {seen_names} named rooms"
    );
}
