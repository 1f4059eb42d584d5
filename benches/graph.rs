//! `cargo bench --bench graph`: graph layout time for 5, 10 and 20 rooms
//! with one and two cycles (benches/graph_layout.lua on 80x50, corridors
//! of 2..6 cells, three template shapes), one map per iteration over
//! successive seeds in a reused VM. The guide's graph chapter quotes it.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use dunlua::script::{Request, Session};

fn session(rooms: u32, cycles: u32) -> Session {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/graph_layout.lua");
    let mut request = Request::new(path, 0);
    request.params = vec![format!("rooms={rooms}"), format!("cycles={cycles}")];
    Session::new(&request).expect("the fixture loads")
}

fn layouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("graph_layout_80x50");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(10));
    for rooms in [5, 10, 20] {
        for cycles in [1, 2] {
            let session = session(rooms, cycles);
            let mut seed = 0u64;
            group.bench_function(BenchmarkId::new(format!("{cycles}_cycles"), rooms), |b| {
                b.iter(|| {
                    seed += 1;
                    session.run(seed).expect("a layout")
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, layouts);
criterion_main!(benches);
