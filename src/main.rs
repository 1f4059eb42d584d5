//! The `dunlua` command; everything lives in the library's `cli` module.

fn main() {
    std::process::exit(dunlua::cli::main());
}
