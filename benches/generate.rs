//! `cargo bench`: the same algorithm three ways in one run (rooms.lua
//! through dunlua, plain Rust on the same RNG, plain Lua in the same Lua
//! 5.4), the cost of one `map:set` against a Lua table write, and `check`
//! on one and two threads. The guide's Performance table of ratios comes from here.

#[allow(dead_code)] // the tests use all of it; the benches only `grogue`
#[path = "../tests/reference.rs"]
mod reference;

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use dunlua::check::{check, CheckOptions};
use dunlua::script::{Request, Session};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rooms_session(size: Option<(i64, i64)>, max_rooms: i64) -> Session {
    let mut request = Request::new(root().join("scripts/rooms.lua"), 0);
    request.size = size;
    request.params = vec![format!("max_rooms={max_rooms}")];
    Session::new(&request).expect("rooms.lua loads")
}

fn pure_lua() -> (mlua::Lua, mlua::Function) {
    let lua = mlua::Lua::new();
    let source = std::fs::read_to_string(root().join("benches/rooms_pure.lua")).unwrap();
    let f: mlua::Function = lua.load(source).eval().unwrap();
    (lua, f)
}

/// 80x50, one map per iteration, cycling through seeds; the VM and the
/// compiled script are reused, as a batch would.
fn small_maps(c: &mut Criterion) {
    let mut group = c.benchmark_group("rooms_80x50");
    let mut seed = 0u64;
    group.bench_function("rust", |b| {
        b.iter(|| {
            seed += 1;
            reference::grogue(seed, 80, 50, 30, 6, 10)
        })
    });
    let session = rooms_session(None, 30);
    group.bench_function("dunlua", |b| {
        b.iter(|| {
            seed += 1;
            session.run(seed).unwrap()
        })
    });
    let (_lua, f) = pure_lua();
    group.bench_function("pure_lua", |b| {
        b.iter(|| {
            seed += 1;
            f.call::<mlua::MultiValue>((seed as i64, 80, 50, 30, 6, 10))
                .unwrap()
        })
    });
    group.finish();
}

/// 2000x2000 with max_rooms = W*H/133: one big map.
fn big_map(c: &mut Criterion) {
    let (w, h) = (2000i32, 2000i32);
    let max_rooms = (w * h / 133) as i64;
    let mut group = c.benchmark_group("rooms_2000x2000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("rust_naive", |b| {
        b.iter(|| reference::grogue(1, w, h, max_rooms as i32, 6, 10))
    });
    let session = rooms_session(Some((w as i64, h as i64)), max_rooms);
    group.bench_function("dunlua", |b| b.iter(|| session.run(1).unwrap()));
    group.finish();
}

/// One `map:set` from Lua against one write to a Lua table.
fn set_cost(c: &mut Criterion) {
    let scratch = tempfile::tempdir().unwrap();
    let path = scratch.path().join("set.lua");
    std::fs::write(
        &path,
        "return { width = 100, height = 100, params = { mode = 'map' }, generate = function(map, rng, p)\n\
           if p.mode == 'map' then\n\
             for i = 1, 100000 do map:set(i % 100, (i // 100) % 100, 'floor') end\n\
           else\n\
             local t = {}\n\
             for i = 1, 100000 do t[(i // 100) % 100 * 100 + i % 100 + 1] = 'floor' end\n\
           end\n\
           map:set_start(0, 0) ; map:set(0, 0, 'floor')\n\
         end }\n",
    )
    .unwrap();
    let mut group = c.benchmark_group("set_100k");
    for mode in ["map", "table"] {
        let mut request = Request::new(&path, 0);
        request.params = vec![format!("mode={mode}")];
        let session = Session::new(&request).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(mode), &session, |b, s| {
            b.iter(|| s.run(0).unwrap())
        });
    }
    group.finish();
}

/// `check` throughput on one and two threads (500 seeds of caves.lua).
fn check_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("check_caves_500");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    for jobs in [1usize, 2] {
        let options = CheckOptions {
            request: Request::new(root().join("scripts/caves.lua"), 0),
            seeds: 0..500,
            jobs,
            save_failures: None,
            export: Default::default(),
            progress: false,
            html: None,
            variety: Some(Default::default()),
            catalog: false,
        };
        group.bench_with_input(BenchmarkId::from_parameter(jobs), &options, |b, o| {
            b.iter(|| check(o).unwrap())
        });
    }
    group.finish();
}

/// One window frame drawn (1280x940 px): an 80x50 map whole at 16 px a
/// cell against a 2000x2000 one at 1, 3 and 8 px a cell (only the part on
/// screen is drawn, so the big map should cost about what the window holds).
fn window_frames(c: &mut Criterion) {
    use dunlua::render::Frame;
    use dunlua::view::{draw, state::ViewState};
    let map = |size: (i64, i64)| {
        let mut request = Request::new(root().join("scripts/caves.lua"), 7);
        request.size = Some(size);
        dunlua::script::run(&request).unwrap()
    };
    let small = map((80, 50));
    let big = map((2000, 2000));
    let mut group = c.benchmark_group("window_frame");
    let mut frame = Frame::new(1280, 960, dunlua::map::Rgb(0, 0, 0));
    for (name, generated, cell) in [
        ("80x50_16px", &small, 16),
        ("2000x2000_1px", &big, 1),
        ("2000x2000_3px", &big, 3),
        ("2000x2000_8px", &big, 8),
    ] {
        let state = ViewState::new(vec![generated.clone()], Duration::ZERO, cell);
        group.bench_function(name, |b| b.iter(|| draw::draw(&state, &mut frame)));
    }
    // What a new map costs the window besides drawing: its regions,
    // distances and buried rock, worked out once.
    group.bench_function("inspect_2000x2000", |b| {
        b.iter(|| dunlua::view::inspect::Inspection::of(&big.map))
    });
    group.finish();
}

criterion_group!(
    benches,
    small_maps,
    big_map,
    set_cost,
    check_threads,
    window_frames
);
criterion_main!(benches);
