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

/// A loader counting its calls in the `AtomicUsize` its user data points
/// to; it supplies an empty module.
unsafe extern "C" fn counts_calls(
    user_data: *mut c_void,
    _: *const c_char,
    module: *mut DunluaModule,
) {
    let calls = unsafe { &*(user_data as *const std::sync::atomic::AtomicUsize) };
    calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    unsafe { dunlua_module_set_source(module, c"return {}".as_ptr(), usize::MAX) };
}

/// The script's top level runs when the generator is built. Built at once
/// by `from_source`, it ran under the default limits before the game could
/// set its own (a top level spinning for the default budget, or eating the
/// default 512 MiB). Now the first setter or status builds it.
#[test]
fn the_limits_set_first_hold_for_the_scripts_top_level() {
    let calls = Box::new(std::sync::atomic::AtomicUsize::new(0));
    let name = CString::new("mods/top.lua").unwrap();
    let source = CString::new(
        "local lib = require('lib.top')\n\
         local n = 0\n\
         for i = 1, 2000000 do n = n + 1 end\n\
         return { width = 8, height = 8, generate = function(map) map:fill('floor') map:set_start(1, 1) end }",
    )
    .unwrap();
    let g = unsafe {
        dunlua_generator_from_source(
            name.as_ptr(),
            source.as_ptr(),
            Some(counts_calls),
            &*calls as *const _ as *mut c_void,
        )
    };
    assert_eq!(
        calls.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "nothing ran yet"
    );
    assert_eq!(
        dunlua_generator_set_limits(g, 1_000_000, 16, 5.0),
        DunluaStatus::Limit
    );
    let message = text(dunlua_generator_error(g));
    assert!(
        message.starts_with("mods/top.lua:3: instruction budget of 1000000 exceeded"),
        "{message}"
    );
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
    // With room for it, the same generator builds and generates.
    assert_eq!(dunlua_generator_set_limits(g, 0, 0, 5.0), DunluaStatus::Ok);
    generate_hash(g, 1).unwrap();
    dunlua_generator_free(g);
    // Without a setter, the status builds it, as before.
    let g = unsafe { dunlua_generator_from_file(rooms().as_ptr()) };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::Ok);
    assert_eq!(dunlua_generator_levels(g), 1);
    dunlua_generator_free(g);
}

/// A script whose seed 1 requires module after module until stopped (the
/// deadline is 30 s).
fn spinning_generator(loader: DunluaModuleLoader, user_data: *mut c_void) -> usize {
    let name = CString::new("spin.lua").unwrap();
    let source = CString::new(
        "return { width = 8, height = 8, generate = function(map, rng, p, ctx)\n\
           local i = 0\n\
           while ctx.seed == 1 do i = i + 1; require('lib.m' .. i) end\n\
           map:fill('floor') map:set_start(1, 1)\n\
         end }",
    )
    .unwrap();
    let g =
        unsafe { dunlua_generator_from_source(name.as_ptr(), source.as_ptr(), loader, user_data) };
    assert_eq!(
        dunlua_generator_set_limits(g, u64::MAX >> 8, 0, 30.0),
        DunluaStatus::Ok
    );
    g as usize
}

/// Another thread cancels a run under way: it returns CANCELLED at once,
/// and the generator goes on working.
#[test]
fn a_run_cancelled_from_another_thread_returns_cancelled() {
    let calls = Box::leak(Box::new(std::sync::atomic::AtomicUsize::new(0)));
    let g = spinning_generator(Some(counts_calls), calls as *const _ as *mut c_void);
    let started = std::time::Instant::now();
    let runner = std::thread::spawn(move || generate_hash(g as *mut _, 1));
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(dunlua_generator_cancel(g as *mut _), DunluaStatus::Ok);
    let (status, message) = runner.join().unwrap().unwrap_err();
    assert_eq!(status, DunluaStatus::Cancelled, "{message}");
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    // No run under way: nothing to cancel, and the next run is not cancelled.
    assert_eq!(dunlua_generator_cancel(g as *mut _), DunluaStatus::Ok);
    generate_hash(g as *mut _, 2).unwrap();
    assert_eq!(dunlua_generator_cancel(null_mut()), DunluaStatus::BadHandle);
    dunlua_generator_free(g as *mut _);
}

/// Freed while another thread's run is under way: the run is cancelled
/// and waited for, so once free returns the loader is never called again
/// (its user data may be freed by the game).
#[test]
fn freeing_a_generator_waits_for_its_run_and_its_loader_is_done() {
    use std::sync::atomic::Ordering::SeqCst;
    let calls = Box::leak(Box::new(std::sync::atomic::AtomicUsize::new(0)));
    let g = spinning_generator(Some(counts_calls), calls as *const _ as *mut c_void);
    let runner = std::thread::spawn(move || generate_hash(g as *mut _, 1));
    while calls.load(SeqCst) < 10 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    dunlua_generator_free(g as *mut _);
    let after_free = calls.load(SeqCst);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(
        calls.load(SeqCst),
        after_free,
        "the loader was called after the free"
    );
    let (status, message) = runner.join().unwrap().unwrap_err();
    assert_eq!(status, DunluaStatus::Cancelled, "{message}");
}

/// Freed while one thread's run is under way and another thread's call
/// waits for its turn: both return CANCELLED and the free returns at once.
/// The waiting call, once it had the lock, cleared the free's cancel and
/// ran its whole budget (or forever, with an unlimited one), and the free
/// waited for it.
#[test]
fn freeing_a_generator_cancels_the_calls_waiting_for_it_too() {
    let name = CString::new("loop.lua").unwrap();
    let source = CString::new(
        "return { width = 8, height = 8, generate = function(map) while true do end end }",
    )
    .unwrap();
    let g =
        unsafe { dunlua_generator_from_source(name.as_ptr(), source.as_ptr(), None, null_mut()) };
    // Budget out of the way; only a 20 s deadline would end a run.
    assert_eq!(
        dunlua_generator_set_limits(g, u64::MAX >> 8, 0, 20.0),
        DunluaStatus::Ok
    );
    let g = g as usize;
    let runners: Vec<_> = (0..2)
        .map(|_| std::thread::spawn(move || generate_hash(g as *mut _, 1).unwrap_err().0))
        .collect();
    // Time for one run to start and the other call to wait for the lock.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let started = std::time::Instant::now();
    dunlua_generator_free(g as *mut _);
    assert!(
        started.elapsed().as_secs() < 10,
        "the free waited {:?}",
        started.elapsed()
    );
    for runner in runners {
        assert_eq!(runner.join().unwrap(), DunluaStatus::Cancelled);
    }
}

/// A game's limits are kept when the script's top level fails under them:
/// the next setter and the generate build again under the game's limits
/// (they were dropped with the failed build, and the mod's top level ran
/// again under the defaults: 400,000,000 instructions, 512 MiB, 10 s).
#[test]
fn limits_the_script_fails_under_are_kept_for_the_next_calls() {
    let name = CString::new("mods/heavy.lua").unwrap();
    let source = CString::new(
        "local n = 0\n\
         for i = 1, 3000000 do n = n + 1 end\n\
         return { width = 8, height = 8, params = { k = 1 }, generate = function(map) map:fill('floor') map:set_start(1, 1) end }",
    )
    .unwrap();
    let g =
        unsafe { dunlua_generator_from_source(name.as_ptr(), source.as_ptr(), None, null_mut()) };
    let budget_of_a_million = "mods/heavy.lua:2: instruction budget of 1000000 exceeded";
    assert_eq!(
        dunlua_generator_set_limits(g, 1_000_000, 16, 5.0),
        DunluaStatus::Limit
    );
    assert!(text(dunlua_generator_error(g)).starts_with(budget_of_a_million));
    // Another setter builds under the kept limits (and is not kept).
    let k = CString::new("k").unwrap();
    assert_eq!(
        unsafe { dunlua_generator_set_int(g, k.as_ptr(), 2) },
        DunluaStatus::Limit
    );
    let message = text(dunlua_generator_error(g));
    assert!(message.starts_with(budget_of_a_million), "{message}");
    let (status, message) = generate_hash(g, 1).unwrap_err();
    assert_eq!(status, DunluaStatus::Limit);
    assert!(message.starts_with(budget_of_a_million), "{message}");
    // A parameter set while the script fails under the limits is not kept
    // (its own error is hidden by the limit's, and could never be taken
    // back: the generator was stuck on "unknown parameter" for good).
    let unknown = CString::new("nope").unwrap();
    assert_eq!(
        unsafe { dunlua_generator_set_int(g, unknown.as_ptr(), 1) },
        DunluaStatus::Limit
    );
    // With room, it builds; a change the build refuses is still not kept.
    assert_eq!(dunlua_generator_set_limits(g, 0, 0, 5.0), DunluaStatus::Ok);
    assert_eq!(
        unsafe { dunlua_generator_set_int(g, unknown.as_ptr(), 1) },
        DunluaStatus::Usage
    );
    generate_hash(g, 1).unwrap();
    dunlua_generator_free(g);
}

/// A script holding a NUL byte (in a long string, as Lua allows) gives the
/// same map through `from_text` as from its file; `from_source` reads a
/// C string, which ends at the NUL.
#[test]
fn a_script_text_with_nul_bytes_comes_whole_through_from_text() {
    let script = b"local s = [[a\0b]]\nreturn { width = 8, height = 8, generate = function(map, rng)\n  map:fill('wall')\n  map:carve_room(Rect.new(1, 1, 4 + #s, 5))\n  map:set_start(2, 2)\nend }\n";
    let dir = std::env::temp_dir().join(format!("dunlua-capi-nul-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("nul.lua");
    std::fs::write(&path, script).unwrap();
    let file = CString::new(path.to_str().unwrap()).unwrap();
    let from_file = unsafe { dunlua_generator_from_file(file.as_ptr()) };
    let want = generate_hash(from_file, 3).unwrap();
    dunlua_generator_free(from_file);
    let name = CString::new("nul.lua").unwrap();
    let g = unsafe {
        dunlua_generator_from_text(
            name.as_ptr(),
            script.as_ptr() as *const c_char,
            script.len(),
            None,
            null_mut(),
        )
    };
    assert_eq!(generate_hash(g, 3), Ok(want));
    dunlua_generator_free(g);
    // Not UTF-8, or NULL: the handle holds why.
    let latin1 = b"return '\xe9'";
    let g = unsafe {
        dunlua_generator_from_text(
            name.as_ptr(),
            latin1.as_ptr() as *const c_char,
            latin1.len(),
            None,
            null_mut(),
        )
    };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::InvalidText);
    assert_eq!(
        text(dunlua_generator_error(g)),
        "the script text is not UTF-8 (byte 8)"
    );
    dunlua_generator_free(g);
    let g = unsafe { dunlua_generator_from_text(name.as_ptr(), null(), 4, None, null_mut()) };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::NullArgument);
    dunlua_generator_free(g);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A map a mod marked a million times has a JSON form past the exports'
/// bound (0.66 GB): refused before any of it is made, saying why, as
/// `--out map.json` refuses it. The map itself reads as usual.
#[test]
fn a_map_whose_json_is_past_the_bound_gives_null_and_why() {
    let name = CString::new("many.lua").unwrap();
    let source = CString::new(
        "return { width = 1000, height = 1000, generate = function(map)\n\
           map:fill('floor')\n\
           for y = 0, 999 do for x = 0, 999 do map:mark(x, y, 'coin') end end\n\
           map:set_start(0, 0)\n\
         end }",
    )
    .unwrap();
    let g =
        unsafe { dunlua_generator_from_source(name.as_ptr(), source.as_ptr(), None, null_mut()) };
    // A million marks take about a second; on a loaded machine (the suite
    // runs beside other builds) more than the default 10 s deadline.
    assert_eq!(
        dunlua_generator_set_limits(g, 0, 0, 600.0),
        DunluaStatus::Ok
    );
    let mut map = null_mut();
    assert_eq!(
        unsafe { dunlua_generate(g, 1, &mut map) },
        DunluaStatus::Ok,
        "{}",
        text(dunlua_generator_error(g))
    );
    assert_eq!(dunlua_map_marker_count(map), 1_000_000);
    assert!(dunlua_map_json(map).is_null());
    let why = text(dunlua_last_error());
    assert!(
        why.contains(
            "1000000 markers, rooms and marker properties (with 3 MB of text) would take about 698 MB as JSON"
        ),
        "{why}"
    );
    dunlua_map_free(map);
    dunlua_generator_free(g);
    // A map of a few markers has its JSON.
    let g = unsafe { dunlua_generator_from_file(rooms().as_ptr()) };
    let mut map = null_mut();
    assert_eq!(unsafe { dunlua_generate(g, 1, &mut map) }, DunluaStatus::Ok);
    assert!(text(dunlua_map_json(map)).contains("\"hash\""));
    dunlua_map_free(map);
    dunlua_generator_free(g);
}

/// Supplies `lib/spawn.lua` (what scripts/lib holds) and no other module.
unsafe extern "C" fn gives_spawn(_: *mut c_void, path: *const c_char, module: *mut DunluaModule) {
    if text(path) == "lib/spawn.lua" {
        let spawn = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scripts/lib/spawn.lua"
        ))
        .unwrap();
        let status = unsafe {
            dunlua_module_set_source(module, spawn.as_ptr() as *const c_char, spawn.len())
        };
        assert_eq!(status, DunluaStatus::Ok);
    }
}

/// `from_file_with_loader` reads the script as `from_file` does (the same
/// maps; a FIFO refused, not waited on) and its modules only through the
/// loader: a module the loader does not give is not read from the
/// script's folder, though it is there.
#[test]
fn a_file_with_a_loader_reads_the_file_natively_and_modules_only_from_the_loader() {
    let levels = CString::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scripts/levels.lua"
    ))
    .unwrap();
    let from_file = unsafe { dunlua_generator_from_file(levels.as_ptr()) };
    let want = generate_hash(from_file, 4).unwrap();
    dunlua_generator_free(from_file);
    let g = unsafe {
        dunlua_generator_from_file_with_loader(levels.as_ptr(), Some(gives_spawn), null_mut())
    };
    assert_eq!(generate_hash(g, 4), Ok(want));
    dunlua_generator_free(g);
    // No loader: from_file.
    let g = unsafe { dunlua_generator_from_file_with_loader(levels.as_ptr(), None, null_mut()) };
    assert_eq!(generate_hash(g, 4), Ok(want));
    dunlua_generator_free(g);

    let dir = std::env::temp_dir().join(format!("dunlua-capi-file-loader-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("lib/walls.lua"), "return 1\n").unwrap();
    std::fs::write(
        dir.join("uses.lua"),
        "local w = require('lib.walls')\nreturn { generate = function() end }\n",
    )
    .unwrap();
    let uses = CString::new(dir.join("uses.lua").to_str().unwrap()).unwrap();
    let g = unsafe {
        dunlua_generator_from_file_with_loader(uses.as_ptr(), Some(gives_spawn), null_mut())
    };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::Runtime);
    let message = text(dunlua_generator_error(g));
    assert!(
        message.ends_with(
            "uses.lua:1: module 'lib.walls' not found: no lib/walls.lua among the modules the game supplied"
        ),
        "{message}"
    );
    dunlua_generator_free(g);
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo.lua");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let fifo = CString::new(fifo.to_str().unwrap()).unwrap();
        let g = unsafe {
            dunlua_generator_from_file_with_loader(fifo.as_ptr(), Some(gives_spawn), null_mut())
        };
        assert_ne!(dunlua_generator_status(g), DunluaStatus::Ok);
        let message = text(dunlua_generator_error(g));
        assert!(message.contains("not a regular file (a FIFO)"), "{message}");
        dunlua_generator_free(g);
    }
    // A NULL path is an error the handle holds.
    let g =
        unsafe { dunlua_generator_from_file_with_loader(null(), Some(gives_spawn), null_mut()) };
    assert_eq!(dunlua_generator_status(g), DunluaStatus::NullArgument);
    dunlua_generator_free(g);
    std::fs::remove_dir_all(&dir).unwrap();
}
