//! `include/dunlua.h` is what cbindgen makes of `src/lib.rs` today: a
//! header that has fallen behind the code fails here. To regenerate it:
//! `DUNLUA_BLESS=1 cargo test -p dunlua-capi --test header`.

use std::path::PathBuf;

#[test]
fn the_committed_header_is_what_cbindgen_generates() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads src/lib.rs")
        .write(&mut fresh);
    let path = dir.join("include/dunlua.h");
    if std::env::var_os("DUNLUA_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "capi/include/dunlua.h is stale: regenerate it with \
         DUNLUA_BLESS=1 cargo test -p dunlua-capi --test header, and commit it"
    );
}
