//! Prints `dunlua SCRIPT --seed SEED --hash` as a game depending on the
//! crate computes it.

fn main() {
    let mut args = std::env::args().skip(1);
    let script = args.next().expect("a script");
    let seed: u64 = args.next().expect("a seed").parse().expect("a number");
    let generator = dunlua::Generator::file(&script)
        .build()
        .expect("the script loads");
    let map = generator.generate(seed).expect("a map");
    println!("{:016x}", map.hash());
}
