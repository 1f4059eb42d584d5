//! `cargo bench --bench wfc`: `wfc.fill` of a whole map from a 16x16
//! sample (n = 3, 8 symmetries), 80x50 and 200x200, with and without the
//! connectivity watch; one map per iteration, seeds cycling, the VM reused.
//! The guide's numbers (docs/guide/src/wfc.md) come from here.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use dunlua::script::{Request, Session};

fn session(size: (i64, i64), connected: bool) -> Session {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut request = Request::new(root.join("benches/wfc_fill.lua"), 0);
    request.size = Some(size);
    request.params = vec![format!("connected={connected}")];
    Session::new(&request).expect("benches/wfc_fill.lua loads")
}

fn fills(c: &mut Criterion) {
    let mut group = c.benchmark_group("wfc_fill");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for (w, h) in [(80, 50), (200, 200)] {
        for connected in [false, true] {
            let session = session((w, h), connected);
            let mut seed = 0u64;
            let id = format!("{w}x{h}{}", if connected { "_connected" } else { "" });
            group.bench_function(BenchmarkId::from_parameter(id), |b| {
                b.iter(|| {
                    seed += 1;
                    session.run(seed).expect("the fill succeeds")
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, fills);
criterion_main!(benches);
